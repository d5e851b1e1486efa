package org.apache.hadoop.hbase.rlsm.fault;

import java.util.EnumSet;
import java.util.Set;

/** The kinds of file system operation the fault file system counts and can fail. */
public enum FaultOp {
  CREATE, WRITE, SYNC, CLOSE, RENAME, DELETE, MKDIRS, OPEN, READ;

  /** Operations that change what is on disk: the crash points of a write path. */
  public static final Set<FaultOp> MUTATIONS =
    EnumSet.of(CREATE, WRITE, SYNC, CLOSE, RENAME, DELETE, MKDIRS);

  /** Every kind, reads included. */
  public static final Set<FaultOp> ALL = EnumSet.allOf(FaultOp.class);
}
