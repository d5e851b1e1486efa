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
java_import org.apache.hadoop.hbase.util.Bytes
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

module RlsmShell
  # A command's failure that the user should see as one line, without a Ruby backtrace.
  class CommandError < StandardError; end

  # The commands; every line or script runs with an instance of this as self.
  class Commands
    HELP = <<~TEXT.freeze
      Commands (HBase shell syntax; names and values are strings):
        list [REGEX]                      tables
        exists 't'                        whether table t exists
        describe 't'                      families with engine, versions and settings
        create 't', 'f1'[, 'f2'...][, ENGINE => 'rlsm'|'default'|'stripe']
        create 't', {NAME => 'f', VERSIONS => 3}, ENGINE => 'rlsm'
        disable 't' / enable 't' / is_enabled 't' / drop 't'   (drop needs a disabled table)
        put 't', 'row', 'f:q', 'value'[, TIMESTAMP]
        get 't', 'row'[, 'f:q' | {COLUMN => 'f:q'} | {COLUMNS => ['f:a', 'f']}]
        scan 't'[, {STARTROW => 'a', STOPROW => 'b', LIMIT => 10, COLUMNS => ['f']}]
        count 't'                         number of rows
        delete 't', 'row', 'f:q'          one cell, all its versions
        deleteall 't', 'row'[, 'f:q']     a whole row (or all versions of one column)
        flush 't'                         memstores to store files
        help, exit
      A table created without ENGINE uses RLSM, as bin/create-table does.
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
      td.getColumnFamilies.each do |cf|
        conf = cf.getConfiguration.to_a.map { |k, v| "#{k}=#{v}" }.sort
        engine = cf.getConfigurationValue('hbase.hstore.engine.class') || '(server default)'
        puts "{NAME => '#{cf.getNameAsString}', VERSIONS => #{cf.getMaxVersions}, " \
             "ENGINE => '#{engine}', CONFIGURATION => {#{conf.join(', ')}}}"
      end
      td
    end

    def create(table, *specs)
      options = specs.last.is_a?(Hash) && !specs.last.key?(NAME) ? specs.pop : {}
      unknown = options.keys - [ENGINE]
      unless unknown.empty?
        raise CommandError, "create: unknown table option(s) #{unknown.join(', ')}"
      end
      raise CommandError, 'create: name at least one column family' if specs.empty?
      engine = engine(options.fetch(ENGINE, 'rlsm'))
      families = specs.map { |s| family_spec(s) }
      versions = families.map { |f| f[:versions] }.uniq
      raise CommandError, 'create: all families must have the same VERSIONS' if versions.size > 1
      td = CreateTable.descriptor(table_name(table),
                                  families.map { |f| Bytes.toBytes(f[:name]) },
                                  engine, versions.first || 0, java.util.HashMap.new)
      CreateTable.create(@admin, td, false, 120)
      puts "Created table #{table} (#{engine.name.downcase} engine)"
      table
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
      unknown = spec.keys - [STARTROW, STOPROW, LIMIT, COLUMNS]
      raise CommandError, "scan: unknown option(s) #{unknown.join(', ')}" unless unknown.empty?
      s = Scan.new
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

    def family_spec(spec)
      case spec
      when String then { name: spec, versions: nil }
      when Hash
        unknown = spec.keys - [NAME, VERSIONS]
        unless unknown.empty?
          raise CommandError, "create: unknown family option(s) #{unknown.join(', ')}"
        end
        raise CommandError, 'create: a family needs a NAME' unless spec[NAME]
        { name: spec[NAME].to_s, versions: spec[VERSIONS] && Integer(spec[VERSIONS]) }
      else raise CommandError, "create: a family is a name or {NAME => ...}, not #{spec.inspect}"
      end
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
    # HBase's exceptions carry the server's whole stack in the message; the first line says it.
    warn "ERROR: #{e.java_class.simple_name}: #{e.message.to_s.lines.first.to_s.strip}"
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
