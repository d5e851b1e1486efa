# The HBase shell of bin/hbase-shell: the everyday commands of Apache HBase's shell, with the
# same Ruby syntax, over the HBase 2.6 Java client and this project's table builder (so `create`
# can name a store engine). HBase's own shell (org.apache.hbase:hbase-shell) cannot be fetched
# from the package registry this project builds from; docs/operations.md says what is covered.
#
# Usage (through bin/hbase-shell, which sets the class path and the server's configuration):
#   bin/hbase-shell                 interactive, one command per line
#   echo "list" | bin/hbase-shell   commands from standard input, one per line
#   bin/hbase-shell script.rb       a Ruby script calling the commands
# Every failed command prints "ERROR: ..."; input from a pipe or a script then makes the exit
# status 1 (an interactive session goes on).

require 'java'

java_import org.apache.hadoop.hbase.CellUtil
java_import org.apache.hadoop.hbase.HBaseConfiguration
java_import org.apache.hadoop.hbase.TableName
java_import org.apache.hadoop.hbase.client.ConnectionFactory
java_import org.apache.hadoop.hbase.client.ColumnFamilyDescriptorBuilder
java_import org.apache.hadoop.hbase.client.Delete
java_import org.apache.hadoop.hbase.client.Get
java_import org.apache.hadoop.hbase.client.Put
java_import org.apache.hadoop.hbase.client.Scan
java_import org.apache.hadoop.hbase.client.TableDescriptorBuilder
java_import org.apache.hadoop.hbase.filter.FirstKeyOnlyFilter
java_import org.apache.hadoop.hbase.filter.ParseFilter
java_import org.apache.hadoop.hbase.HConstants
java_import org.apache.hadoop.hbase.MemoryCompactionPolicy
java_import org.apache.hadoop.hbase.util.Bytes
java_import org.apache.hadoop.hbase.util.RegionSplitter
java_import org.apache.hadoop.hbase.rlsm.standalone.CreateTable

# Option names as HBase's shell spells them (it defines them as constants too).
NAME = 'NAME'.freeze
VERSIONS = 'VERSIONS'.freeze
ENGINE = 'ENGINE'.freeze
CONFIGURATION = 'CONFIGURATION'.freeze
COLUMN = 'COLUMN'.freeze
COLUMNS = 'COLUMNS'.freeze
STARTROW = 'STARTROW'.freeze
STOPROW = 'STOPROW'.freeze
LIMIT = 'LIMIT'.freeze
TIMESTAMP = 'TIMESTAMP'.freeze
TTL = 'TTL'.freeze
IN_MEMORY_COMPACTION = 'IN_MEMORY_COMPACTION'.freeze
SPLITS = 'SPLITS'.freeze
NUMREGIONS = 'NUMREGIONS'.freeze
SPLITALGO = 'SPLITALGO'.freeze
FILTER = 'FILTER'.freeze
METHOD = 'METHOD'.freeze

module RlsmShell
  # A command's failure that the user should see as one line, without a Ruby backtrace.
  class CommandError < StandardError; end

  # The commands; every line or script runs with an instance of this as self.
  class Commands
    HELP = <<~TEXT.freeze
      Commands (HBase shell syntax; names and values are strings):
        list [REGEX]                      tables
        exists 't'                        whether table t exists
        describe 't'                      the table's attributes and families
        status                            masters, RegionServers, regions
        create 't', 'f1'[, 'f2'...]
        create 't', {NAME => 'f', VERSIONS => 3, TTL => 86400, IN_MEMORY_COMPACTION => 'NONE',
                     CONFIGURATION => {'key' => 'value'}}[, {NAME => 'g'}...]
               [, CONFIGURATION => {...}]           table-level settings
               [, SPLITS => ['a', 'm']]             pre-split at these rows, or
               [, NUMREGIONS => 4, SPLITALGO => 'HexStringSplit'|'DecimalStringSplit'|'UniformSplit']
               [, ENGINE => 'rlsm'|'default'|'stripe']   (this shell's shortcut for an engine's settings)
        alter 't', {NAME => 'f', ...}     change (or add) a family; only the given options change
        alter 't', NAME => 'f', METHOD => 'delete'
        alter 't', CONFIGURATION => {...} table-level settings
        disable 't' / enable 't' / is_enabled 't' / drop 't' / truncate 't'
        put 't', 'row', 'f:q', 'value'[, TIMESTAMP]
        incr 't', 'row', 'f:q'[, N]       add N (default 1) to a counter
        get 't', 'row'[, 'f:q' | {COLUMN => 'f:q'} | {COLUMNS => ['f:a', 'f']}]
        scan 't'[, {STARTROW => 'a', STOPROW => 'b', LIMIT => 10, COLUMNS => ['f'],
                    FILTER => "PrefixFilter('r1')"}]   (HBase's filter language)
        count 't'                         number of rows
        delete 't', 'row', 'f:q'          one cell, all its versions
        deleteall 't', 'row'[, 'f:q']     a whole row (or all versions of one column)
        flush 't' / compact 't'[, 'f'] / major_compact 't'[, 'f'] / split 't'[, 'row']
        snapshot 't', 'snap' / clone_snapshot 'snap', 't2' / restore_snapshot 'snap'
        list_snapshots [REGEX] / delete_snapshot 'snap'
        help, exit
      A table keeps HBase's default store engine unless a family's CONFIGURATION names one, e.g.
      'hbase.hstore.engine.class' => 'org.apache.hadoop.hbase.regionserver.RlsmStoreEngine'.
    TEXT

    def initialize(connection)
      @connection = connection
      @admin = connection.getAdmin
    end

    def help
      puts HELP
      nil
    end

    def list(regex = '.*')
      pattern = java.util.regex.Pattern.compile(regex)
      names = @admin.listTableNames(pattern).map(&:getNameAsString)
      puts 'TABLE'
      names.each { |n| puts n }
      puts "#{names.size} row(s)"
      names
    end

    def exists(table)
      found = @admin.tableExists(table_name(table))
      puts "Table #{table} #{found ? 'does exist' : 'does not exist'}"
      found
    end

    def describe(table)
      td = @admin.getDescriptor(table_name(table))
      puts "Table #{table} is #{@admin.isTableEnabled(td.getTableName) ? 'ENABLED' : 'DISABLED'}"
      puts "#{table}, #{td.toStringTableAttributes}"
      puts 'COLUMN FAMILIES DESCRIPTION'
      td.getColumnFamilies.each { |cf| puts cf.toString }
      puts "#{td.getColumnFamilyCount} row(s)"
      td
    end

    def status
      m = @admin.getClusterMetrics
      servers = m.getLiveServerMetrics.size
      regions = m.getLiveServerMetrics.values.sum { |s| s.getRegionMetrics.size }
      load = servers.zero? ? 0.0 : regions.to_f / servers
      puts "1 active master, #{m.getBackupMasterNames.size} backup masters, #{servers} servers, " \
           "#{m.getDeadServerNames.size} dead, #{format('%.4f', load)} average load"
      servers
    end

    def create(table, *specs)
      options = specs.last.is_a?(Hash) && !specs.last.key?(NAME) ? specs.pop : {}
      unknown = options.keys - [ENGINE, CONFIGURATION, SPLITS, NUMREGIONS, SPLITALGO]
      unless unknown.empty?
        raise CommandError, "create: unknown table option(s) #{unknown.join(', ')}"
      end
      raise CommandError, 'create: name at least one column family' if specs.empty?
      engine = options[ENGINE] && engine(options[ENGINE])
      tb = TableDescriptorBuilder.newBuilder(table_name(table))
      tb = CreateTable.configure(engine, tb) if engine
      (options[CONFIGURATION] || {}).each { |k, v| tb.setValue(k.to_s, v.to_s) }
      specs.each do |spec|
        cf = ColumnFamilyDescriptorBuilder.newBuilder(Bytes.toBytes(family_name(spec)))
        cf = CreateTable.configure(engine, cf) if engine
        tb.setColumnFamily(family_options(cf, spec).build)
      end
      CreateTable.create(@admin, tb.build, split_keys(options), false, 120)
      puts "Created table #{table}"
      table
    end

    def alter(table, *specs)
      name = table_name(table)
      tb = TableDescriptorBuilder.newBuilder(@admin.getDescriptor(name))
      raise CommandError, 'alter: give a family {NAME => ...} or CONFIGURATION' if specs.empty?
      specs.each do |spec|
        raise CommandError, "alter: expected a Hash, not #{spec.inspect}" unless spec.is_a?(Hash)
        if spec[NAME]
          family = Bytes.toBytes(spec[NAME].to_s)
          if spec[METHOD]
            raise CommandError, "alter: METHOD must be 'delete'" unless spec[METHOD] == 'delete'
            tb.removeColumnFamily(family)
            next
          end
          old = tb.build.getColumnFamily(family)
          cf = old ? ColumnFamilyDescriptorBuilder.newBuilder(old)
                   : ColumnFamilyDescriptorBuilder.newBuilder(family)
          cf = family_options(cf, spec)
          old ? tb.modifyColumnFamily(cf.build) : tb.setColumnFamily(cf.build)
        else
          unknown = spec.keys - [CONFIGURATION]
          raise CommandError, "alter: unknown option(s) #{unknown.join(', ')}" unless unknown.empty?
          spec[CONFIGURATION].each { |k, v| tb.setValue(k.to_s, v.to_s) }
        end
      end
      @admin.modifyTable(tb.build)
      puts 'Updating all regions with the new schema...'
      puts 'Done.'
      nil
    end

    def disable(table)
      @admin.disableTable(table_name(table))
      puts "Disabled #{table}"
    end

    def enable(table)
      @admin.enableTable(table_name(table))
      puts "Enabled #{table}"
    end

    def is_enabled(table)
      enabled = @admin.isTableEnabled(table_name(table))
      puts enabled
      enabled
    end

    def drop(table)
      @admin.deleteTable(table_name(table))
      puts "Dropped #{table}"
    end

    def truncate(table)
      name = table_name(table)
      puts "Truncating '#{table}' table (it may take a while):"
      if @admin.isTableEnabled(name)
        puts ' - Disabling table...'
        @admin.disableTable(name)
      end
      puts ' - Truncating table...'
      @admin.truncateTable(name, false)
      nil
    end

    def incr(table, row, column, value = 1)
      family, qualifier = column_parts(column)
      raise CommandError, "incr: '#{column}' names no qualifier" if qualifier.nil?
      n = with_table(table) do |t|
        t.incrementColumnValue(Bytes.toBytes(row), family, qualifier, Integer(value))
      end
      puts "COUNTER VALUE = #{n}"
      n
    end

    def put(table, row, column, value, timestamp = nil)
      family, qualifier = column_parts(column)
      if qualifier.nil?
        raise CommandError, "put: '#{column}' names no qualifier (use 'family:qualifier')"
      end
      p = Put.new(Bytes.toBytes(row))
      if timestamp
        p.addColumn(family, qualifier, timestamp, Bytes.toBytes(value.to_s))
      else
        p.addColumn(family, qualifier, Bytes.toBytes(value.to_s))
      end
      with_table(table) { |t| t.put(p) }
      nil
    end

    def get(table, row, spec = nil)
      g = Get.new(Bytes.toBytes(row))
      columns(spec).each { |f, q| q ? g.addColumn(f, q) : g.addFamily(f) }
      result = with_table(table) { |t| t.get(g) }
      puts 'COLUMN                CELL'
      cells = result.rawCells.to_a
      cells.each { |c| puts " #{column_name(c).ljust(20)} #{cell_text(c)}" }
      puts "#{cells.size} column(s)"
      cells.size
    end

    def scan(table, spec = {})
      unknown = spec.keys - [STARTROW, STOPROW, LIMIT, COLUMNS, FILTER]
      raise CommandError, "scan: unknown option(s) #{unknown.join(', ')}" unless unknown.empty?
      s = Scan.new
      s.setFilter(ParseFilter.new.parseFilterString(spec[FILTER].to_s)) if spec[FILTER]
      s.withStartRow(Bytes.toBytes(spec[STARTROW])) if spec[STARTROW]
      s.withStopRow(Bytes.toBytes(spec[STOPROW])) if spec[STOPROW]
      s.setLimit(spec[LIMIT]) if spec[LIMIT]
      columns(spec[COLUMNS] ? { COLUMNS => spec[COLUMNS] } : nil)
        .each { |f, q| q ? s.addColumn(f, q) : s.addFamily(f) }
      rows = 0
      puts 'ROW                   COLUMN+CELL'
      with_table(table) do |t|
        scanner = t.getScanner(s)
        begin
          scanner.each do |r|
            rows += 1
            r.rawCells.each do |c|
              puts " #{Bytes.toStringBinary(r.getRow).ljust(20)} column=#{column_name(c)}, " \
                   "#{cell_text(c)}"
            end
          end
        ensure
          scanner.close
        end
      end
      puts "#{rows} row(s)"
      rows
    end

    def count(table)
      rows = 0
      with_table(table) do |t|
        scanner = t.getScanner(Scan.new.setFilter(FirstKeyOnlyFilter.new))
        begin
          scanner.each { rows += 1 }
        ensure
          scanner.close
        end
      end
      puts "#{rows} row(s)"
      rows
    end

    def delete(table, row, column)
      family, qualifier = column_parts(column)
      raise CommandError, "delete: '#{column}' names no qualifier" if qualifier.nil?
      d = Delete.new(Bytes.toBytes(row)).addColumns(family, qualifier)
      with_table(table) { |t| t.delete(d) }
      nil
    end

    def deleteall(table, row, column = nil)
      d = Delete.new(Bytes.toBytes(row))
      if column
        family, qualifier = column_parts(column)
        qualifier ? d.addColumns(family, qualifier) : d.addFamily(family)
      end
      with_table(table) { |t| t.delete(d) }
      nil
    end

    def flush(table)
      @admin.flush(table_name(table))
      puts "Flushed #{table}"
    end

    def compact(table, family = nil)
      family ? @admin.compact(table_name(table), Bytes.toBytes(family))
             : @admin.compact(table_name(table))
      puts "Requested compaction of #{table}"
    end

    def major_compact(table, family = nil)
      family ? @admin.majorCompact(table_name(table), Bytes.toBytes(family))
             : @admin.majorCompact(table_name(table))
      puts "Requested major compaction of #{table}"
    end

    def split(table, row = nil)
      row ? @admin.split(table_name(table), Bytes.toBytes(row)) : @admin.split(table_name(table))
      puts "Requested split of #{table}"
    end

    def snapshot(table, name)
      @admin.snapshot(name, table_name(table))
      puts "Took snapshot #{name} of #{table}"
    end

    def clone_snapshot(name, table)
      @admin.cloneSnapshot(name, table_name(table))
      puts "Cloned snapshot #{name} to #{table}"
    end

    def restore_snapshot(name)
      @admin.restoreSnapshot(name)
      puts "Restored snapshot #{name}"
    end

    def delete_snapshot(name)
      @admin.deleteSnapshot(name)
      puts "Deleted snapshot #{name}"
    end

    def list_snapshots(regex = '.*')
      snaps = @admin.listSnapshots(java.util.regex.Pattern.compile(regex)).to_a
      puts 'SNAPSHOT                 TABLE'
      snaps.each { |d| puts " #{d.getName.ljust(24)} #{d.getTableNameAsString}" }
      puts "#{snaps.size} row(s)"
      snaps.map(&:getName)
    end

    private

    def table_name(table)
      TableName.valueOf(table.to_s)
    end

    def with_table(table)
      t = @connection.getTable(table_name(table))
      begin
        yield t
      ensure
        t.close
      end
    end

    def engine(name)
      CreateTable::Engine.valueOf(name.to_s.upcase)
    rescue java.lang.IllegalArgumentException
      raise CommandError, "ENGINE must be 'rlsm', 'default' or 'stripe', not '#{name}'"
    end

    def family_name(spec)
      case spec
      when String then spec
      when Hash
        raise CommandError, 'create: a family needs a NAME' unless spec[NAME]
        spec[NAME].to_s
      else raise CommandError, "a family is a name or {NAME => ...}, not #{spec.inspect}"
      end
    end

    # Applies a family spec's options (HBase shell names) to a builder.
    def family_options(cf, spec)
      return cf unless spec.is_a?(Hash)
      unknown = spec.keys - [NAME, VERSIONS, TTL, IN_MEMORY_COMPACTION, CONFIGURATION]
      raise CommandError, "unknown family option(s) #{unknown.join(', ')}" unless unknown.empty?
      cf.setMaxVersions(Integer(spec[VERSIONS])) if spec[VERSIONS]
      cf.setTimeToLive(spec[TTL] == 'FOREVER' ? HConstants::FOREVER : Integer(spec[TTL])) if spec[TTL]
      if spec[IN_MEMORY_COMPACTION]
        cf.setInMemoryCompaction(MemoryCompactionPolicy.valueOf(spec[IN_MEMORY_COMPACTION].to_s))
      end
      (spec[CONFIGURATION] || {}).each { |k, v| cf.setConfiguration(k.to_s, v.to_s) }
      cf
    end

    # SPLITS => [...] or NUMREGIONS => n, SPLITALGO => name, as HBase's shell; nil: one region.
    def split_keys(options)
      if options[SPLITS]
        raise CommandError, 'create: give SPLITS or NUMREGIONS, not both' if options[NUMREGIONS]
        return options[SPLITS].map { |k| Bytes.toBytesBinary(k.to_s) }.to_java(Java::byte[])
      end
      return nil unless options[NUMREGIONS]
      raise CommandError, 'create: NUMREGIONS needs SPLITALGO' unless options[SPLITALGO]
      RegionSplitter.newSplitAlgoInstance(HBaseConfiguration.create, options[SPLITALGO].to_s)
                    .split(Integer(options[NUMREGIONS]))
    end

    # 'f:q' -> [f, q] as byte arrays; 'f' -> [f, nil].
    def column_parts(column)
      family, qualifier = column.to_s.split(':', 2)
      [Bytes.toBytes(family), qualifier && Bytes.toBytes(qualifier)]
    end

    def columns(spec)
      list = case spec
             when nil then []
             when String then [spec]
             when Array then spec
             when Hash then Array(spec[COLUMN] || spec[COLUMNS])
             else
               raise CommandError, "expected a column, a list of columns or a Hash: #{spec.inspect}"
             end
      list.map { |c| column_parts(c) }
    end

    def column_name(cell)
      family = Bytes.toStringBinary(CellUtil.cloneFamily(cell))
      "#{family}:#{Bytes.toStringBinary(CellUtil.cloneQualifier(cell))}"
    end

    def cell_text(cell)
      "timestamp=#{cell.getTimestamp}, value=#{Bytes.toStringBinary(CellUtil.cloneValue(cell))}"
    end
  end

  # Runs one command line (or script) and reports a failure as "ERROR: ..."; true if it worked.
  def self.run(commands, code, where)
    commands.instance_eval(code, where, 1)
    true
  rescue CommandError => e
    warn "ERROR: #{e.message}"
    false
  rescue java.lang.Exception => e
    # HBase's exceptions carry the server's whole stack in the message; the first line says it,
    # after the class name a remote exception repeats.
    first = e.message.to_s.lines.first.to_s.strip.sub(/\A#{Regexp.escape(e.java_class.name)}: /, '')
    warn "ERROR: #{e.java_class.simple_name}: #{first}"
    false
  rescue StandardError, ScriptError => e
    warn "ERROR: #{e.class}: #{e.message}"
    false
  end

  def self.main(args)
    if args.size > 1
      warn 'usage: hbase-shell [SCRIPT.rb]'
      return 2
    end
    connection = ConnectionFactory.createConnection(HBaseConfiguration.create)
    begin
      commands = Commands.new(connection)
      return run(commands, File.read(args[0]), args[0]) ? 0 : 1 unless args.empty?

      interactive = STDIN.tty?
      ok = true
      lineno = 0
      loop do
        print 'hbase-rlsm> ' if interactive
        line = STDIN.gets
        break if line.nil?
        lineno += 1
        line = line.strip
        next if line.empty? || line.start_with?('#')
        break if %w[exit quit].include?(line)
        ok = run(commands, line, "stdin line #{lineno}") && ok
      end
      interactive || ok ? 0 : 1
    ensure
      connection.close
    end
  end
end

exit RlsmShell.main(ARGV) if __FILE__ == $PROGRAM_NAME
