/**
 * The RLSM hash memstore's data structures: a concurrent hash table from row to that row's small
 * sorted cell set ({@link org.apache.hadoop.hbase.rlsm.memstore.HashCellTable}), so writes never
 * sort across rows, plus a lazily maintained sorted row index for scans.
 *
 * <p>Layering: depends on HBase's cell, comparator, MSLAB and memstore sizing types and on
 * {@code rlsm.index.RowHash}; the {@code MemStore} glue that HBase instantiates lives in
 * {@code org.apache.hadoop.hbase.regionserver} ({@code RlsmHashMemStore}, {@code RlsmHashSegment},
 * {@code RlsmHashScanner}, {@code RlsmHashFlushScanner}).
 *
 * <p>Invariants: no cell is added to a row before the row is in the table's creation log (the
 * input of the sorted row index), and cells are only ever added, never removed, so a reader that
 * takes its MVCC read point first and then looks at the table sees every cell with a sequence id
 * at or below that read point. A row's cell array is immutable once published (copy on write).
 */
package org.apache.hadoop.hbase.rlsm.memstore;
