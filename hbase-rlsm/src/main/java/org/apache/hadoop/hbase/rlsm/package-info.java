/**
 * Public entry points of hbase-rlsm: {@link org.apache.hadoop.hbase.rlsm.RlsmTables} builds
 * table and family descriptors that use the RLSM engine and completes descriptors that name only
 * the engine, {@link org.apache.hadoop.hbase.rlsm.RlsmMasterObserver} applies that completion at
 * create and alter on the master (and refuses snapshots that
 * {@link org.apache.hadoop.hbase.rlsm.RlsmSnapshots} finds unready),
 * {@link org.apache.hadoop.hbase.rlsm.RlsmConfig} holds the engine's configuration keys.
 * Invariants: a descriptor the master stores never has an RLSM family with a setting RLSM cannot
 * work with (docs/install.md); with the observer on, no snapshot holds a format v1 file.
 *
 * <p>Sub-packages, lowest layer first: {@code format} (byte codecs) &lt;- {@code index} and
 * {@code cachehint} &lt;- {@code file}, {@code compaction}, {@code memstore}, {@code ulfs} &lt;-
 * this package &lt;- the engine glue in {@code org.apache.hadoop.hbase.regionserver}; the operator
 * tools in {@code tool} use {@code file} and below. Nothing lower imports anything higher (the
 * table is in docs/architecture.md and enforced by {@code TestLayering}); this package names the
 * engine class only as a string.
 */
package org.apache.hadoop.hbase.rlsm;
