/** @jsxImportSource react */
import type { ReactNode } from 'react';
import Table from '@material-ui/core/Table';
import TableBody from '@material-ui/core/TableBody';
import TableCell from '@material-ui/core/TableCell';
import TableHead from '@material-ui/core/TableHead';
import TableRow from '@material-ui/core/TableRow';
import Typography from '@material-ui/core/Typography';
import Box from '@material-ui/core/Box';
import { makeStyles } from '@material-ui/core/styles';

/**
 * Cells break lines between words only ("Running", not "Runni/ng"); a table wider than its
 * card scrolls sideways instead.
 */
const useStyles = makeStyles({
  cell: { wordBreak: 'normal', overflowWrap: 'normal' },
});

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
  const classes = useStyles();
  if (rows.length === 0) {
    return <Typography variant="body2">{emptyText}</Typography>;
  }
  return (
    <Box overflow="auto">
      <Table size="small" aria-label={title}>
        <TableHead>
          <TableRow>
            {columns.map(column => (
              <TableCell key={column.title} className={classes.cell}>
                {column.title}
              </TableCell>
            ))}
          </TableRow>
        </TableHead>
        <TableBody>
          {rows.map((row, index) => (
            <TableRow key={rowKey(row, index)}>
              {columns.map(column => (
                <TableCell key={column.title} className={classes.cell}>
                  {column.render(row)}
                </TableCell>
              ))}
            </TableRow>
          ))}
        </TableBody>
      </Table>
    </Box>
  );
}

/** Label–value pairs, the label as a row header. */
export function FactsTable(props: {
  title: string;
  facts: [string, ReactNode][];
}) {
  const classes = useStyles();
  return (
    <Table size="small" aria-label={props.title}>
      <TableBody>
        {props.facts.map(([label, value]) => (
          <TableRow key={label}>
            <TableCell
              component="th"
              scope="row"
              role="rowheader"
              className={classes.cell}
            >
              {label}
            </TableCell>
            <TableCell className={classes.cell}>{value}</TableCell>
          </TableRow>
        ))}
      </TableBody>
    </Table>
  );
}
