package org.apache.hadoop.hbase.rlsm.tool;

import org.apache.yetus.audience.InterfaceAudience;

/**
 * One finding of {@link StoreVerifier}: the file, the byte offset (-1 when the finding concerns
 * the file as a whole) and what is wrong. Orphans are {@link Severity#NOTICE}: an interrupted
 * compaction leaves them and the next region open archives them; everything else is
 * {@link Severity#DAMAGE}.
 */
@InterfaceAudience.Private
public final class Damage {
  /** How bad a finding is. */
  public enum Severity {
    DAMAGE, NOTICE
  }

  private final Severity severity;
  private final String file;
  private final long offset;
  private final String what;

  Damage(Severity severity, String file, long offset, String what) {
    this.severity = severity;
    this.file = file;
    this.offset = offset;
    this.what = what;
  }

  public Severity severity() {
    return severity;
  }

  public String file() {
    return file;
  }

  public long offset() {
    return offset;
  }

  public String what() {
    return what;
  }

  /** One report line: severity, file, offset (or "-"), what. */
  @Override
  public String toString() {
    return severity + " " + file + " " + (offset < 0 ? "-" : Long.toString(offset)) + " " + what;
  }
}
