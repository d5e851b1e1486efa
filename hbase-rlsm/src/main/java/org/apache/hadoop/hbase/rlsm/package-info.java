/**
 * Public entry points of hbase-rlsm: {@link org.apache.hadoop.hbase.rlsm.RlsmTables} builds
 * table and family descriptors that use the RLSM engine, {@link
 * org.apache.hadoop.hbase.rlsm.RlsmConfig} holds the engine's configuration keys.
 *
 * <p>Sub-packages, lowest layer first: {@code format} (byte codecs) &lt;- {@code index} (hash
 * index, Bloom filter, sorted views) &lt;- {@code file} (whole-file reader and writer) &lt;- the
 * engine glue in {@code org.apache.hadoop.hbase.regionserver}. Nothing lower imports anything higher; this
 * package names the engine class only as a string.
 */
package org.apache.hadoop.hbase.rlsm;
