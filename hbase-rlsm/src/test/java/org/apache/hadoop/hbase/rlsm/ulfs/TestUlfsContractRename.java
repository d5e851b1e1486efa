package org.apache.hadoop.hbase.rlsm.ulfs;

import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.contract.AbstractContractRenameTest;
import org.apache.hadoop.fs.contract.AbstractFSContract;
import org.apache.hadoop.hbase.HBaseClassTestRule;
import org.apache.hadoop.hbase.testclassification.IOTests;
import org.apache.hadoop.hbase.testclassification.SmallTests;
import org.junit.ClassRule;
import org.junit.experimental.categories.Category;

/** Hadoop's Rename contract test against ulfs://. */
@Category({ SmallTests.class, IOTests.class })
public class TestUlfsContractRename extends AbstractContractRenameTest {
  @ClassRule
  public static final HBaseClassTestRule CLASS_RULE =
    HBaseClassTestRule.forClass(TestUlfsContractRename.class);

  @Override
  protected AbstractFSContract createContract(Configuration conf) {
    return new UlfsContract(conf);
  }
}
