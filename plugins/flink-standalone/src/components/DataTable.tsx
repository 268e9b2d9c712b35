/** @jsxImportSource react */
import type { ReactNode } from 'react';
import Table from '@material-ui/core/Table';
import TableBody from '@material-ui/core/TableBody';
import TableCell from '@material-ui/core/TableCell';
import TableHead from '@material-ui/core/TableHead';
import TableRow from '@material-ui/core/TableRow';
import Typography from '@material-ui/core/Typography';

export interface Column<T> {
  title: string;
  render: (row: T) => ReactNode;
}

/**
 * A plain table with a header row and a name for screen readers; every row shown, since a
 * cluster of 50 TaskManagers must be readable without paging.
 */
export function DataTable<T>(props: {
  title: string;
  columns: Column<T>[];
  rows: T[];
  rowKey: (row: T, index: number) => string;
  emptyText: string;
}) {
  const { title, columns, rows, rowKey, emptyText } = props;
  if (rows.length === 0) {
    return <Typography variant="body2">{emptyText}</Typography>;
  }
  return (
    <Table size="small" aria-label={title}>
      <TableHead>
        <TableRow>
          {columns.map(column => (
            <TableCell key={column.title}>{column.title}</TableCell>
          ))}
        </TableRow>
      </TableHead>
      <TableBody>
        {rows.map((row, index) => (
          <TableRow key={rowKey(row, index)}>
            {columns.map(column => (
              <TableCell key={column.title}>{column.render(row)}</TableCell>
            ))}
          </TableRow>
        ))}
      </TableBody>
    </Table>
  );
}

/** Label–value pairs, the label as a row header. */
export function FactsTable(props: {
  title: string;
  facts: [string, ReactNode][];
}) {
  return (
    <Table size="small" aria-label={props.title}>
      <TableBody>
        {props.facts.map(([label, value]) => (
          <TableRow key={label}>
            <TableCell component="th" scope="row" role="rowheader">
              {label}
            </TableCell>
            <TableCell>{value}</TableCell>
          </TableRow>
        ))}
      </TableBody>
    </Table>
  );
}
