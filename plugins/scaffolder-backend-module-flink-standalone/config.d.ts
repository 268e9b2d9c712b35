export interface Config {
  flinkStandalone?: {
    /**
     * Named PersistentVolumeClaim templates defined by the platform team. A cluster spec refers
     * to one from a claim entry, `{ name: flink-data, claimTemplate: fast-ssd-50g }`, and the
     * scaffolder actions replace the reference by these fields; an unknown name, or a template
     * not allowed for that component, fails the step with the field's path.
     */
    claimTemplates?: Array<{
      /** The name templates refer to, e.g. `fast-ssd-50g`. */
      name: string;
      /** Shown to developers choosing a template. */
      description?: string;
      /** The claim's size, a Kubernetes quantity such as `50Gi`. */
      storage: string;
      /** The StorageClass; absent: the cluster's default class. */
      storageClassName?: string;
      /** Absent: `ReadWriteOnce`. */
      accessModes?: Array<
        'ReadWriteOnce' | 'ReadOnlyMany' | 'ReadWriteMany' | 'ReadWriteOncePod'
      >;
      /** Labels on every claim made from this template. */
      labels?: { [key: string]: string };
      /** Annotations on every claim made from this template (e.g. for a backup tool). */
      annotations?: { [key: string]: string };
      /**
       * Which Flink components may use it: JobManagers rarely need a volume (HA metadata lives
       * in durable storage), TaskManagers use one for local recovery.
       */
      allowedFor: Array<'jobManager' | 'taskManager'>;
    }>;
  };
}
