package org.apache.hadoop.hbase.rlsm;

import java.io.IOException;
import java.util.Optional;
import org.apache.hadoop.conf.Configuration;
import java.util.List;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.Mutation;
import org.apache.hadoop.hbase.client.SnapshotDescription;
import org.apache.hadoop.hbase.client.TableDescriptor;
import org.apache.hadoop.hbase.coprocessor.CoreCoprocessor;
import org.apache.hadoop.hbase.coprocessor.HasMasterServices;
import org.apache.hadoop.hbase.coprocessor.MasterCoprocessor;
import org.apache.hadoop.hbase.coprocessor.MasterCoprocessorEnvironment;
import org.apache.hadoop.hbase.coprocessor.MasterObserver;
import org.apache.hadoop.hbase.coprocessor.ObserverContext;
import org.apache.yetus.audience.InterfaceAudience;

/**
 * Makes {@code hbase.hstore.engine.class} the only setting a family needs to use RLSM, on the
 * family, the table, or in the master's site configuration: at table create and at every alter
 * (HBase routes add and modify family through modify table), the master stores the descriptor
 * {@link RlsmTables#complete} returns for its configuration, or refuses the operation with its
 * {@code DoNotRetryIOException}, which the client and the shell show as they are; a snapshot of a
 * table whose RLSM families still hold format v1 files is refused, and so is a clone or restore
 * of a snapshot that holds one ({@link RlsmSnapshots}). An alter that takes a family off RLSM
 * must pass {@link LeaveCheck} first: it is refused unless the family is leaving RLSM and its
 * stores hold only whole files, and it loses RLSM's settings. A split is failed (and so rolled
 * back by HBase) before it is committed in hbase:meta when the daughters lack a reference to a
 * file of an RLSM store ({@link DaughterCheck}). Enabled by
 * {@code hbase.coprocessor.master.classes} in the master's hbase-site.xml (docs/install.md).
 * Stateless. A {@code CoreCoprocessor}: HBase then hands it the master's services, through
 * which {@link DaughterCheck} finds the split procedure the hook runs for (the hook names only
 * the split row).
 */
@CoreCoprocessor
@InterfaceAudience.LimitedPrivate("Configuration")
public class RlsmMasterObserver implements MasterCoprocessor, MasterObserver {
  @Override
  public Optional<MasterObserver> getMasterObserver() {
    return Optional.of(this);
  }

  @Override
  public TableDescriptor preCreateTableRegionsInfos(
    ObserverContext<MasterCoprocessorEnvironment> ctx, TableDescriptor desc) throws IOException {
    return RlsmTables.complete(ctx.getEnvironment().getConfiguration(), desc);
  }

  @Override
  public TableDescriptor preModifyTable(ObserverContext<MasterCoprocessorEnvironment> ctx,
    TableName tableName, TableDescriptor currentDescriptor, TableDescriptor newDescriptor)
    throws IOException {
    Configuration conf = ctx.getEnvironment().getConfiguration();
    return RlsmTables.complete(conf, LeaveCheck.check(conf, currentDescriptor, newDescriptor));
  }

  @Override
  public void preSnapshot(ObserverContext<MasterCoprocessorEnvironment> ctx,
    SnapshotDescription snapshot, TableDescriptor tableDescriptor) throws IOException {
    RlsmSnapshots.checkSnapshotReady(ctx.getEnvironment().getConfiguration(), tableDescriptor);
  }

  @Override
  public void preCloneSnapshot(ObserverContext<MasterCoprocessorEnvironment> ctx,
    SnapshotDescription snapshot, TableDescriptor tableDescriptor) throws IOException {
    RlsmSnapshots.checkSnapshotFiles(ctx.getEnvironment().getConfiguration(), snapshot.getName(),
      tableDescriptor);
  }

  @Override
  public void preRestoreSnapshot(ObserverContext<MasterCoprocessorEnvironment> ctx,
    SnapshotDescription snapshot, TableDescriptor tableDescriptor) throws IOException {
    RlsmSnapshots.checkSnapshotFiles(ctx.getEnvironment().getConfiguration(), snapshot.getName(),
      tableDescriptor);
  }

  @Override
  public void preSplitRegionBeforeMETAAction(ObserverContext<MasterCoprocessorEnvironment> ctx,
    byte[] splitKey, List<Mutation> metaEntries) throws IOException {
    MasterCoprocessorEnvironment env = ctx.getEnvironment();
    if (env instanceof HasMasterServices) {
      DaughterCheck.check(((HasMasterServices) env).getMasterServices(), env.getConfiguration(),
        splitKey);
    }
  }
}
