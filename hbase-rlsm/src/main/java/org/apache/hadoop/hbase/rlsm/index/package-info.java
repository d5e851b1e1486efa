/**
 * In-memory indexes of RLSM files: the row hash that orders records, the per-file hash index
 * (row to record), the Level-0 key Bloom filter and the sorted row view used by scans, and the
 * summaries of a file's rows that its file-info records (the distinct-row sketch, the row
 * quantiles).
 *
 * <p>Layering: depends only on {@code rlsm.format} (for its byte codecs) and HBase's
 * {@code Bytes}; knows nothing of stores or HBase files. Invariants: {@link
 * org.apache.hadoop.hbase.rlsm.index.HashIndex} entries are ordered by (unsigned row hash, row)
 * and tile the data section they describe exactly; every structure is immutable once built, so
 * it is shared by all readers of a file without locks.
 */
package org.apache.hadoop.hbase.rlsm.index;
