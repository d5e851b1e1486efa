/**
 * Whole RLSM files: {@link org.apache.hadoop.hbase.rlsm.file.RlsmFileWriter} turns a stream of
 * sorted cells into one immutable hash-ordered file, {@link
 * org.apache.hadoop.hbase.rlsm.file.RlsmFileReader} opens, validates and serves one;
 * {@link org.apache.hadoop.hbase.rlsm.file.V2Files} checks format-v2 files outside a server, and
 * {@link org.apache.hadoop.hbase.rlsm.file.LeaveReadiness} tells whether a store directory holds
 * only files HBase's default engine may serve.
 *
 * <p>Layering: uses {@code rlsm.format} and {@code rlsm.index}; used by the store engine. A file
 * is written once to a temporary name and never modified after {@code finish}; a reader validates
 * the trailer and every metadata section when it opens, and each record's checksum when it reads
 * it, so no reader ever returns bytes that fail a checksum.
 */
package org.apache.hadoop.hbase.rlsm.file;
