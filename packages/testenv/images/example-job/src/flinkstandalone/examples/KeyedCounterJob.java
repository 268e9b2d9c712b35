package flinkstandalone.examples;

import org.apache.flink.api.common.functions.OpenContext;
import org.apache.flink.api.common.functions.RichMapFunction;
import org.apache.flink.api.common.state.ValueState;
import org.apache.flink.api.common.state.ValueStateDescriptor;
import org.apache.flink.api.common.typeinfo.PrimitiveArrayTypeInfo;
import org.apache.flink.api.common.typeinfo.Types;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.streaming.api.functions.KeyedProcessFunction;
import org.apache.flink.util.Collector;

/**
 * A small stateful streaming job for application mode and local-recovery tests, compiled against
 * each Flink version's own jars (the same source builds for 1.19, 1.20 and 2.x).
 *
 * <p>An unbounded, checkpointed number sequence (throttled to --rate records per second per
 * subtask) is keyed by {@code n % --keys}; per key a {@link ValueState} counts the records and
 * another holds --state-bytes bytes of padding, so each TaskManager has real keyed state to
 * snapshot, keep a local copy of, and restore. Every --report-every records a key prints
 * {@code key=<k> count=<c>}: after a failover the counts go on from the last checkpoint instead
 * of starting again at 1. Checkpoints every --checkpoint-interval ms (unless the cluster config
 * sets execution.checkpointing.interval itself).
 */
public class KeyedCounterJob {

  public static void main(String[] args) throws Exception {
    long keys = longArg(args, "--keys", 16);
    long rate = longArg(args, "--rate", 100);
    long stateBytes = longArg(args, "--state-bytes", 1024);
    long reportEvery = longArg(args, "--report-every", 50);
    long checkpointInterval = longArg(args, "--checkpoint-interval", 5000);

    StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment();
    if (checkpointInterval > 0) {
      env.enableCheckpointing(checkpointInterval);
    }
    env.fromSequence(0, Long.MAX_VALUE)
        .name("numbers")
        .map(new Throttle(rate))
        .name("throttle")
        .keyBy(n -> n % keys)
        .process(new CountPerKey(stateBytes, reportEvery))
        .name("count-per-key")
        .uid("count-per-key")
        .print()
        .name("print");
    env.execute("keyed-counter");
  }

  private static long longArg(String[] args, String name, long fallback) {
    for (int i = 0; i + 1 < args.length; i++) {
      if (args[i].equals(name)) {
        return Long.parseLong(args[i + 1]);
      }
    }
    return fallback;
  }

  /** Passes records on at most {@code rate} per second (per subtask). */
  static class Throttle extends RichMapFunction<Long, Long> {
    private final long rate;
    private transient long started;
    private transient long emitted;

    Throttle(long rate) {
      this.rate = rate;
    }

    @Override
    public void open(OpenContext context) {
      started = System.nanoTime();
      emitted = 0;
    }

    @Override
    public Long map(Long value) throws Exception {
      emitted++;
      if (rate > 0) {
        long due = started + emitted * 1_000_000_000L / rate;
        long wait = due - System.nanoTime();
        if (wait > 0) {
          Thread.sleep(wait / 1_000_000L, (int) (wait % 1_000_000L));
        }
      }
      return value;
    }
  }

  /** Keyed state: a count and a padding blob per key. */
  static class CountPerKey extends KeyedProcessFunction<Long, Long, String> {
    private final long stateBytes;
    private final long reportEvery;
    private transient ValueState<Long> count;
    private transient ValueState<byte[]> padding;

    CountPerKey(long stateBytes, long reportEvery) {
      this.stateBytes = stateBytes;
      this.reportEvery = reportEvery;
    }

    @Override
    public void open(OpenContext context) {
      count = getRuntimeContext().getState(new ValueStateDescriptor<>("count", Types.LONG));
      padding =
          getRuntimeContext()
              .getState(
                  new ValueStateDescriptor<>(
                      "padding", PrimitiveArrayTypeInfo.BYTE_PRIMITIVE_ARRAY_TYPE_INFO));
    }

    @Override
    public void processElement(Long value, Context ctx, Collector<String> out) throws Exception {
      Long current = count.value();
      long next = current == null ? 1 : current + 1;
      count.update(next);
      if (current == null && stateBytes > 0) {
        padding.update(new byte[(int) stateBytes]);
      }
      if (reportEvery > 0 && next % reportEvery == 0) {
        out.collect("key=" + ctx.getCurrentKey() + " count=" + next);
      }
    }
  }
}
