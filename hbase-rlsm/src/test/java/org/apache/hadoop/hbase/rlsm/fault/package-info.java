/**
 * Fault injection for durability tests. {@link FaultInjectingFileSystem} (scheme
 * {@code faultfs}) is the local file system with a record of what each file had made durable
 * (hflush, hsync, close), a simulated crash that drops or truncates everything else, and an
 * {@code IOException} at the k-th operation of chosen kinds. {@link CrashableRegion} drives an
 * HBase region on it through crash, WAL split and reopen; the tests here sweep every RLSM
 * operation over its crash points and damage every section of every RLSM file role.
 *
 * <p>Model (HDFS semantics, the file system HBase is built for): namespace operations (create,
 * mkdirs, rename, delete) are durable when they return, as the NameNode logs them before it
 * answers; file bytes are durable only up to the last hflush, hsync or close. Directory-entry
 * durability of a local POSIX file system (an unsynced create or rename undone by a power loss)
 * is not modelled. Test code only.
 */
package org.apache.hadoop.hbase.rlsm.fault;
