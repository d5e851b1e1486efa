package org.apache.hadoop.hbase.rlsm;

import java.io.IOException;
import java.util.Optional;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.SnapshotDescription;
import org.apache.hadoop.hbase.client.TableDescriptor;
import org.apache.hadoop.hbase.coprocessor.MasterCoprocessor;
import org.apache.hadoop.hbase.coprocessor.MasterCoprocessorEnvironment;
import org.apache.hadoop.hbase.coprocessor.MasterObserver;
import org.apache.hadoop.hbase.coprocessor.ObserverContext;
import org.apache.yetus.audience.InterfaceAudience;

/**
 * Makes {@code hbase.hstore.engine.class} the only setting a family needs to use RLSM: at table
 * create and at every alter (HBase routes add and modify family through modify table), the master
 * stores the descriptor {@link RlsmTables#complete} returns, or refuses the operation with its
 * {@code DoNotRetryIOException}, which the client and the shell show as they are; a snapshot of a
 * table whose RLSM families still hold format v1 files is refused, and so is a clone or restore
 * of a snapshot that holds one ({@link RlsmSnapshots}). Enabled by
 * {@code hbase.coprocessor.master.classes} in the master's hbase-site.xml (docs/install.md).
 * Stateless.
 */
@InterfaceAudience.LimitedPrivate("Configuration")
public class RlsmMasterObserver implements MasterCoprocessor, MasterObserver {
  @Override
  public Optional<MasterObserver> getMasterObserver() {
    return Optional.of(this);
  }

  @Override
  public TableDescriptor preCreateTableRegionsInfos(
    ObserverContext<MasterCoprocessorEnvironment> ctx, TableDescriptor desc) throws IOException {
    return RlsmTables.complete(desc);
  }

  @Override
  public TableDescriptor preModifyTable(ObserverContext<MasterCoprocessorEnvironment> ctx,
    TableName tableName, TableDescriptor currentDescriptor, TableDescriptor newDescriptor)
    throws IOException {
    return RlsmTables.complete(newDescriptor);
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
}
