package org.apache.hadoop.hbase.rlsm.cachehint;

import java.io.IOException;

/** A stream whose accesses the page cache can treat by role (ulfs input and output streams). */
public interface StreamRoleHint {
  void setStreamRole(StreamRole role) throws IOException;
}
