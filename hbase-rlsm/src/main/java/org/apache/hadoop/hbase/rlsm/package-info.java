/**
 * Public entry points of hbase-rlsm: {@link org.apache.hadoop.hbase.rlsm.RlsmTables} builds
 * table and family descriptors that use the RLSM engine and completes descriptors that name only
 * the engine, {@link org.apache.hadoop.hbase.rlsm.RlsmMasterObserver} applies that completion at
 * create and alter on the master (and refuses snapshots that
 * {@link org.apache.hadoop.hbase.rlsm.RlsmSnapshots} finds unready, and splits whose daughters
 * {@link org.apache.hadoop.hbase.rlsm.DaughterCheck} finds incomplete before they are committed),
 * {@link org.apache.hadoop.hbase.rlsm.RlsmConfig} holds the engine's configuration keys,
 * {@link org.apache.hadoop.hbase.rlsm.LeaveCheck} guards the way out of RLSM, and
 * {@link org.apache.hadoop.hbase.rlsm.LinkReferenceCleaner}, a delegate of HBase's HFile cleaner
 * on the master, keeps archived files that split daughters refer to by link name (it only ever
 * keeps files, never deletes one another delegate keeps). Invariants: a
 * descriptor the master stores never has an RLSM family with a setting RLSM cannot work with
 * (docs/install.md), and never takes the engine from a family whose stores still hold files
 * HBase's default engine must not serve; with the observer on, no snapshot holds a format v1 file
 * and no split is committed whose daughters lack a reference to a file of an RLSM store.
 *
 * <p>Sub-packages, lowest layer first: {@code format} (byte codecs) &lt;- {@code index} and
 * {@code cachehint} &lt;- {@code file}, {@code compaction}, {@code memstore}, {@code ulfs} &lt;-
 * this package &lt;- the engine glue in {@code org.apache.hadoop.hbase.regionserver}; the operator
 * tools in {@code tool} use this package and below. This package uses {@code compaction} (for the
 * leave key) and {@code file} (to check store directories) besides {@code memstore}. Nothing
 * lower imports anything higher (the table is in docs/architecture.md and enforced by
 * {@code TestLayering}); this package names the engine class only as a string.
 */
package org.apache.hadoop.hbase.rlsm;
