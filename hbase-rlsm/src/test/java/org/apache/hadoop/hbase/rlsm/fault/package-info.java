/**
 * Fault injection for durability tests: {@link org.apache.hadoop.hbase.rlsm.fault.FaultInjectingFileSystem}
 * (scheme {@code faultfs}) is the local file system with a record of what each file had made
 * durable (hflush, hsync, close), a simulated crash that drops or truncates everything else, and
 * an {@code IOException} at the k-th operation of chosen kinds.
 *
 * <p>Model (HDFS semantics, the file system HBase is built for): namespace operations (create,
 * mkdirs, rename, delete) are durable when they return, as the NameNode logs them before it
 * answers; file bytes are durable only up to the last hflush, hsync or close. Directory-entry
 * durability of a local POSIX file system (an unsynced create or rename undone by a power loss)
 * is not modelled. Test code only.
 */
package org.apache.hadoop.hbase.rlsm.fault;
