/**
 * Byte-level codecs of the RLSM file format (spec: {@code docs/format/rlsm-file.md}).
 *
 * <p>This is the lowest layer: it knows bytes, checksums and versions, nothing of HBase stores.
 * Invariants: every section of a file is covered by a CRC32C kept in the {@link
 * org.apache.hadoop.hbase.rlsm.format.Trailer}; every row record carries its own CRC32C; a
 * decoder that meets bytes it cannot trust throws {@link
 * org.apache.hadoop.hbase.rlsm.format.RlsmCorruptionException} naming the file and offset and
 * never returns partial or guessed data. The one rule above bytes is the manifest chain
 * ({@link org.apache.hadoop.hbase.rlsm.format.ManifestChain}): which manifests are live and the
 * layout they record, refused whole when a member is missing or does not apply.
 */
package org.apache.hadoop.hbase.rlsm.format;
