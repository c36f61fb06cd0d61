import java.math.BigDecimal;
import java.sql.Array;
import java.sql.Connection;
import java.sql.DatabaseMetaData;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.ResultSetMetaData;
import java.sql.SQLException;
import java.sql.Statement;
import java.sql.Types;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Properties;
import java.util.Set;
import java.util.UUID;
import java.util.logging.Handler;
import java.util.logging.Level;
import java.util.logging.LogRecord;
import java.util.logging.Logger;
import java.util.logging.SimpleFormatter;

import org.postgresql.PGStatement;
import org.postgresql.util.PGInterval;
import org.postgresql.util.PGobject;

/**
 * Scenario runs pgjdbc against a mallard server and prints one line per check,
 * "PASS java: name" or "FAIL java: name: why", exiting 1 when any check failed.
 * scripts/test-clients.sh compiles it with javac at test time and passes the
 * server as PGHOST and PGPORT. On a failure it also prints the last statement
 * pgjdbc sent, taken from the driver's own protocol log.
 */
public final class Scenario {
    /** Columns of java_types: name, SQL type, pgjdbc's type name, java.sql.Types code. */
    static final String[][] COLUMNS = {
        {"id", "integer PRIMARY KEY", "int4", "INTEGER"},
        {"c_bool", "boolean", "bool", "BIT"},
        {"c_int2", "smallint", "int2", "SMALLINT"},
        {"c_int4", "integer", "int4", "INTEGER"},
        {"c_int8", "bigint", "int8", "BIGINT"},
        {"c_float4", "real", "float4", "REAL"},
        {"c_float8", "double precision", "float8", "DOUBLE"},
        {"c_numeric", "numeric(10,2)", "numeric", "NUMERIC"},
        {"c_text", "text", "text", "VARCHAR"},
        {"c_varchar", "varchar(20)", "varchar", "VARCHAR"},
        {"c_bytea", "bytea", "bytea", "BINARY"},
        {"c_date", "date", "date", "DATE"},
        {"c_time", "time", "time", "TIME"},
        {"c_timestamp", "timestamp", "timestamp", "TIMESTAMP"},
        {"c_timestamptz", "timestamptz", "timestamptz", "TIMESTAMP"},
        {"c_interval", "interval", "interval", "OTHER"},
        {"c_uuid", "uuid", "uuid", "OTHER"},
        {"c_json", "json", "json", "OTHER"},
        {"c_int_array", "integer[]", "_int4", "ARRAY"},
        {"c_text_array", "text[]", "_text", "ARRAY"},
    };

    static final String TEXT = "héllo, \"wörld\" \\ 🦆";
    static final byte[] BYTES = {0x00, 0x01, (byte) 0xde, (byte) 0xad, (byte) 0xbe, (byte) 0xef, (byte) 0xff};
    static final BigDecimal NUMERIC = new BigDecimal("12345678.90");
    static final LocalDate DATE = LocalDate.of(2024, 2, 29);
    static final LocalTime TIME = LocalTime.of(13, 45, 30, 123_456_000);
    static final LocalDateTime TIMESTAMP = LocalDateTime.of(DATE, TIME);
    static final OffsetDateTime TIMESTAMPTZ = OffsetDateTime.of(TIMESTAMP, ZoneOffset.UTC);
    static final UUID ID = UUID.fromString("a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11");
    static final String JSON = "{\"a\": [1, 2, {\"b\": null}], \"c\": \"d\"}";
    static final Integer[] INTS = {1, null, -3};
    static final String[] TEXTS = {"plain", "with space", "with,comma", "with \"quote\"", "", null};

    interface Check {
        void run() throws Exception;
    }

    private final String url;
    private final ArrayDeque<String> sent = new ArrayDeque<>();
    private int limitedExecutes; // Execute messages pgjdbc sent with a row limit of 100
    private int passed;
    private int failed;
    private Connection conn;
    private Connection other;

    Scenario(String url) {
        this.url = url;
    }

    public static void main(String[] args) {
        String host = System.getenv().getOrDefault("PGHOST", "127.0.0.1");
        String port = System.getenv().getOrDefault("PGPORT", "5433");
        String db = System.getenv().getOrDefault("PGDATABASE", "mallard");
        Scenario s = new Scenario("jdbc:postgresql://" + host + ":" + port + "/" + db);
        s.recordSent();
        s.run();
        System.exit(s.failed == 0 ? 0 : 1);
    }

    void run() {
        Properties props = new Properties();
        check("connect", () -> conn = connect(props));
        if (conn == null) {
            // pgjdbc's default connect runs SET extra_float_digits; this
            // option sends it in the startup packet instead, so the other
            // checks still say something while that SET fails.
            props.setProperty("assumeMinServerVersion", "9.0");
            check("connect with assumeMinServerVersion=9.0 (no SET at startup)", () -> conn = connect(props));
        }
        if (conn == null) {
            return;
        }
        check("connect a second session", () -> other = connect(props));
        check("create tables", this::create);
        check("insert with parameters", this::insert);
        check("setObject(PGInterval) parameter", this::intervalParameter);
        check("select all types back, first execution (text)", () -> selectRow(1));
        check("select all types back, 10 executions of one PreparedStatement (binary after 5)",
              this::selectRowRepeatedly);
        check("select NULLs back", this::selectNulls);
        check("ResultSetMetaData column types", this::resultSetMetaData);
        check("parameters in WHERE", this::whereParams);
        check("setArray parameters in = ANY(?)", this::anyArrays);
        check("PreparedStatement insert 10 times", this::insertPrepared);
        check("PreparedStatement select 10 times with changing parameters", this::selectPrepared);
        check("parameters in the select list", this::selectListParameter);
        check("executeBatch of 50 inserts", this::batch);
        check("setFetchSize(100) over 1000 rows, autocommit off", this::fetchSize);
        check("DatabaseMetaData.getTables", this::tables);
        check("DatabaseMetaData.getColumns", this::columns);
        check("DatabaseMetaData.getPrimaryKeys", this::primaryKeys);
        check("DatabaseMetaData.getTypeInfo", this::typeInfo);
        check("error 42P01 missing table", () -> expectState("42P01", "SELECT * FROM java_no_such_table"));
        check("error 23505 duplicate primary key",
              () -> expectState("23505", "INSERT INTO java_types (id) VALUES (1)"));
        check("error 42601 syntax", () -> expectState("42601", "SELEC 1"));
        check("error 25P02 in failed transaction", this::abortedTransaction);
        check("transaction commit visible, rollback not", this::transaction);
        check("Mallard: train_gat with parameters, prepareThreshold=1", () -> mallardTrain(props));
        check("Mallard: forecast with a parameter, prepareThreshold=1, 3 executions", () -> mallardForecast(props));
        check("Mallard: setFetchSize over forecast with a parameter, autocommit off", this::mallardFetchSize);
        check("Mallard: forecast with stringtype=unspecified (statement described before Bind)",
              () -> mallardUnspecified(props));
        closeQuietly(conn);
        closeQuietly(other);
    }

    Connection connect(Properties extra) throws SQLException {
        Properties p = new Properties();
        p.setProperty("user", System.getenv().getOrDefault("PGUSER", "mallard"));
        p.putAll(extra);
        return DriverManager.getConnection(url, p);
    }

    // ---- checks --------------------------------------------------------

    /** A connection whose PreparedStatements are server-prepared (named) from the first execution. */
    Connection preparing(Properties props) throws SQLException {
        Properties p = new Properties();
        p.putAll(props);
        p.setProperty("prepareThreshold", "1");
        return connect(p);
    }

    void mallardTrain(Properties props) throws SQLException {
        try (Statement st = conn.createStatement()) {
            st.execute("DROP TABLE IF EXISTS java_sales");
            st.execute("DROP TABLE IF EXISTS java_wide");
            st.execute("CREATE TABLE java_sales AS SELECT i // 3 AS period, 'e' || (i % 3) AS entity, "
                       + "sin(i // 3 * 0.7 + i % 3) * 10 + i % 5 AS units FROM range(150) t(i)");
            st.execute("CREATE TABLE java_wide AS SELECT * FROM pivot_entity_time('java_sales', "
                       + "entity := 'entity', time := 'period', value := 'units')");
        }
        try (Connection c = preparing(props); PreparedStatement ps = c.prepareStatement(
                "SELECT epoch FROM train_gat(?, model := ?, epochs := ?, window := 4, season := 1)")) {
            ps.setString(1, "java_wide");
            ps.setString(2, "java_gat");
            ps.setInt(3, 2);
            List<Object> epochs = new ArrayList<>();
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    epochs.add(rs.getInt(1));
                }
            }
            expect(epochs, List.of(1, 2), "epochs");
        }
    }

    void mallardForecast(Properties props) throws SQLException {
        try (Connection c = preparing(props); PreparedStatement ps = c.prepareStatement(
                "SELECT * FROM forecast(?, steps := ?)")) {
            for (int run = 1; run <= 3; run++) {
                ps.setString(1, "java_gat");
                ps.setInt(2, run);
                int rows = 0;
                try (ResultSet rs = ps.executeQuery()) {
                    ResultSetMetaData md = rs.getMetaData();
                    expect(md.getColumnName(2) + " " + md.getColumnTypeName(2), "period int8", "run " + run + " column 2");
                    expect(md.getColumnTypeName(4), "float8", "run " + run + " prediction's type");
                    while (rs.next()) {
                        rows++;
                    }
                }
                expect(rows, 3 * run, "run " + run + " rows");
            }
            try (PreparedStatement count = c.prepareStatement("SELECT count(*) FROM forecast(?, steps := 1)")) {
                count.setString(1, "java_gat");
                try (ResultSet rs = count.executeQuery()) {
                    rs.next();
                    expect(rs.getObject(1), 3L, "count(*) as a long");
                }
            }
        }
    }

    /** With stringtype=unspecified pgjdbc describes the statement, not the portal, before reading rows. */
    void mallardUnspecified(Properties props) throws SQLException {
        Properties p = new Properties();
        p.putAll(props);
        p.setProperty("stringtype", "unspecified");
        try (Connection c = preparing(p); PreparedStatement ps = c.prepareStatement(
                "SELECT * FROM forecast(?, steps := 1)")) {
            ps.setString(1, "java_gat");
            int rows = 0;
            try (ResultSet rs = ps.executeQuery()) {
                expect(rs.getMetaData().getColumnName(2), "period", "column 2");
                while (rs.next()) {
                    rows++;
                }
            }
            expect(rows, 3, "rows");
        }
    }

    void mallardFetchSize() throws SQLException {
        conn.setAutoCommit(false);
        try (PreparedStatement ps = conn.prepareStatement("SELECT step, entity FROM forecast(?, steps := 4)")) {
            ps.setFetchSize(5);
            ps.setString(1, "java_gat");
            int rows = 0;
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    rows++;
                }
            }
            expect(rows, 12, "rows fetched 5 at a time");
        } finally {
            conn.commit();
            conn.setAutoCommit(true);
        }
    }

    void create() throws SQLException {
        try (Statement st = conn.createStatement()) {
            for (String t : List.of("java_types", "java_prep", "java_batch", "java_big", "java_interval")) {
                st.execute("DROP TABLE IF EXISTS " + t);
            }
            StringBuilder ddl = new StringBuilder("CREATE TABLE java_types (");
            for (int i = 0; i < COLUMNS.length; i++) {
                ddl.append(i == 0 ? "" : ", ").append(COLUMNS[i][0]).append(' ').append(COLUMNS[i][1]);
            }
            st.execute(ddl.append(')').toString());
            st.execute("CREATE TABLE java_prep (id integer PRIMARY KEY, n bigint, x double precision, "
                       + "d date, ts timestamptz, u uuid, b bytea, ia integer[], t text)");
            st.execute("CREATE TABLE java_batch (id integer PRIMARY KEY, name text)");
            st.execute("CREATE TABLE java_big (id integer PRIMARY KEY, label text)");
            st.execute("CREATE TABLE java_interval (id integer PRIMARY KEY, iv interval)");
        }
    }

    void insert() throws SQLException {
        String marks = String.join(", ", Collections.nCopies(COLUMNS.length, "?"));
        try (PreparedStatement ps = conn.prepareStatement(
                "INSERT INTO java_types (" + columnList() + ") VALUES (" + marks + ")")) {
            int i = 1;
            ps.setInt(i++, 1);
            ps.setBoolean(i++, true);
            ps.setShort(i++, Short.MAX_VALUE);
            ps.setInt(i++, Integer.MIN_VALUE);
            ps.setLong(i++, Long.MAX_VALUE);
            ps.setFloat(i++, 3.5f);
            ps.setDouble(i++, 2.718281828459045);
            ps.setBigDecimal(i++, NUMERIC);
            ps.setString(i++, TEXT);
            ps.setString(i++, "mallard");
            ps.setBytes(i++, BYTES);
            ps.setObject(i++, DATE);
            ps.setObject(i++, TIME);
            ps.setObject(i++, TIMESTAMP);
            ps.setObject(i++, TIMESTAMPTZ);
            // A PGInterval parameter makes pgjdbc look the type up in pg_type;
            // intervalParameter tests that, so one missing catalog piece does
            // not hide every value check.
            ps.setObject(i++, "1 year 2 mons 3 days 04:05:06.5", Types.OTHER);
            ps.setObject(i++, ID);
            ps.setObject(i++, json());
            ps.setArray(i++, conn.createArrayOf("int4", INTS));
            ps.setArray(i, conn.createArrayOf("text", TEXTS));
            expect(ps.executeUpdate(), 1, "update count");

            i = 1;
            ps.setInt(i++, 2);
            int[] nullTypes = {Types.BOOLEAN, Types.SMALLINT, Types.INTEGER, Types.BIGINT, Types.REAL,
                Types.DOUBLE, Types.NUMERIC, Types.VARCHAR, Types.VARCHAR, Types.BINARY, Types.DATE,
                Types.TIME, Types.TIMESTAMP, Types.TIMESTAMP_WITH_TIMEZONE, Types.OTHER, Types.OTHER,
                Types.OTHER, Types.ARRAY, Types.ARRAY};
            for (int t : nullTypes) {
                ps.setNull(i++, t);
            }
            expect(ps.executeUpdate(), 1, "update count of the NULL row");
        }
    }

    void intervalParameter() throws SQLException {
        try (PreparedStatement ps = conn.prepareStatement("INSERT INTO java_interval VALUES (?, ?)")) {
            ps.setInt(1, 1);
            ps.setObject(2, interval());
            expect(ps.executeUpdate(), 1, "update count");
        }
        try (Statement st = conn.createStatement();
             ResultSet rs = st.executeQuery("SELECT iv FROM java_interval WHERE id = 1")) {
            expect(rs.next(), true, "a row");
            expect(rs.getObject(1), interval(), "interval");
        }
    }

    /** selectRow runs one PreparedStatement runs times and reports each
     *  difference with the runs it occurred in (pgjdbc switches to a named
     *  statement and binary results after prepareThreshold runs). */
    void selectRow(int runs) throws SQLException {
        Map<String, List<Integer>> diffs = new LinkedHashMap<>();
        try (PreparedStatement ps = conn.prepareStatement(
                "SELECT " + columnList() + " FROM java_types WHERE id = ?")) {
            for (int run = 1; run <= runs; run++) {
                ps.setInt(1, 1);
                try (ResultSet rs = ps.executeQuery()) {
                    expect(rs.next(), true, "a row in run " + run);
                    for (String diff : compareRow(rs)) {
                        diffs.computeIfAbsent(diff, k -> new ArrayList<>()).add(run);
                    }
                }
            }
            if (runs > 5) {
                expect(ps.unwrap(PGStatement.class).isUseServerPrepare(), true, "server-prepared after " + runs + " runs");
            }
        }
        if (!diffs.isEmpty()) {
            List<String> out = new ArrayList<>();
            diffs.forEach((diff, at) -> out.add((runs > 1 ? "runs " + at + ": " : "") + diff));
            throw new AssertionError(String.join("; ", out));
        }
    }

    void selectRowRepeatedly() throws SQLException {
        selectRow(10);
    }

    interface ColumnCheck {
        void run(List<String> d) throws SQLException;
    }

    /** compareRow checks each column on its own, so one failing getObject
     *  does not hide the values of the others. */
    List<String> compareRow(ResultSet rs) {
        List<String> d = new ArrayList<>();
        Map<String, ColumnCheck> checks = new LinkedHashMap<>();
        checks.put("id", x -> same(x, "id", rs.getObject("id"), 1));
        checks.put("c_bool", x -> same(x, "c_bool", rs.getObject("c_bool"), true));
        checks.put("c_int2", x -> same(x, "c_int2", rs.getObject("c_int2"), (int) Short.MAX_VALUE));
        checks.put("c_int4", x -> same(x, "c_int4", rs.getObject("c_int4"), Integer.MIN_VALUE));
        checks.put("c_int8", x -> same(x, "c_int8", rs.getObject("c_int8"), Long.MAX_VALUE));
        checks.put("c_float4", x -> same(x, "c_float4", rs.getObject("c_float4"), 3.5f));
        checks.put("c_float8", x -> same(x, "c_float8", rs.getObject("c_float8"), 2.718281828459045));
        checks.put("c_numeric", x -> same(x, "c_numeric", rs.getObject("c_numeric"), NUMERIC));
        checks.put("c_text", x -> same(x, "c_text", rs.getObject("c_text"), TEXT));
        checks.put("c_varchar", x -> same(x, "c_varchar", rs.getObject("c_varchar"), "mallard"));
        checks.put("c_bytea", x -> {
            Object b = rs.getObject("c_bytea");
            if (!(b instanceof byte[]) || !Arrays.equals((byte[]) b, BYTES)) {
                x.add("c_bytea: got " + show(b));
            }
        });
        checks.put("c_date", x -> {
            same(x, "c_date", rs.getObject("c_date", LocalDate.class), DATE);
            classIs(x, "c_date", rs.getObject("c_date"), java.sql.Date.class);
        });
        checks.put("c_time", x -> {
            same(x, "c_time", rs.getObject("c_time", LocalTime.class), TIME);
            classIs(x, "c_time", rs.getObject("c_time"), java.sql.Time.class);
        });
        checks.put("c_timestamp", x -> {
            same(x, "c_timestamp", rs.getObject("c_timestamp", LocalDateTime.class), TIMESTAMP);
            classIs(x, "c_timestamp", rs.getObject("c_timestamp"), java.sql.Timestamp.class);
        });
        checks.put("c_timestamptz", x -> {
            OffsetDateTime tz = rs.getObject("c_timestamptz", OffsetDateTime.class);
            same(x, "c_timestamptz", tz == null ? null : tz.toInstant(), TIMESTAMPTZ.toInstant());
            Object ts = rs.getObject("c_timestamptz");
            same(x, "c_timestamptz as Timestamp", ts instanceof java.sql.Timestamp
                 ? ((java.sql.Timestamp) ts).toInstant() : ts, TIMESTAMPTZ.toInstant());
        });
        checks.put("c_interval", x -> same(x, "c_interval", rs.getObject("c_interval"), interval()));
        checks.put("c_uuid", x -> same(x, "c_uuid", rs.getObject("c_uuid"), ID));
        checks.put("c_json", x -> {
            Object j = rs.getObject("c_json");
            if (!(j instanceof PGobject) || !"json".equals(((PGobject) j).getType())
                    || !JSON.equals(((PGobject) j).getValue())) {
                x.add("c_json: got " + show(j) + (j instanceof PGobject ? " of type " + ((PGobject) j).getType() : ""));
            }
        });
        checks.put("c_int_array", x -> sameArray(x, "c_int_array", rs.getObject("c_int_array"), INTS));
        checks.put("c_text_array", x -> sameArray(x, "c_text_array", rs.getObject("c_text_array"), TEXTS));
        checks.forEach((name, c) -> {
            try {
                c.run(d);
            } catch (SQLException e) {
                d.add(name + ": getObject threw " + firstLine(e) + " [SQLSTATE " + e.getSQLState() + "]");
            } catch (RuntimeException e) {
                d.add(name + ": getObject threw " + e.getClass().getSimpleName() + ": " + firstLine(e));
            }
        });
        return d;
    }

    void selectNulls() throws SQLException {
        try (PreparedStatement ps = conn.prepareStatement(
                "SELECT " + columnList() + " FROM java_types WHERE id = ?")) {
            ps.setInt(1, 2);
            try (ResultSet rs = ps.executeQuery()) {
                expect(rs.next(), true, "a row");
                List<String> notNull = new ArrayList<>();
                for (int i = 2; i <= COLUMNS.length; i++) {
                    Object v = rs.getObject(i);
                    if (v != null || !rs.wasNull()) {
                        notNull.add(COLUMNS[i - 1][0] + "=" + show(v));
                    }
                }
                if (!notNull.isEmpty()) {
                    throw new AssertionError("not NULL: " + notNull);
                }
            }
        }
    }

    void resultSetMetaData() throws SQLException {
        try (Statement st = conn.createStatement();
             ResultSet rs = st.executeQuery("SELECT " + columnList() + " FROM java_types WHERE id = 1")) {
            ResultSetMetaData md = rs.getMetaData();
            expect(md.getColumnCount(), COLUMNS.length, "column count");
            List<String> d = new ArrayList<>();
            for (int i = 1; i <= COLUMNS.length; i++) {
                String want = COLUMNS[i - 1][2];
                String got = md.getColumnTypeName(i);
                if (!want.equals(got) && !(isString(want) && isString(got))) {
                    d.add(COLUMNS[i - 1][0] + ": " + got + ", want " + want);
                }
            }
            int n = rs.findColumn("c_numeric");
            if (md.getPrecision(n) != 10 || md.getScale(n) != 2) {
                d.add("c_numeric: precision " + md.getPrecision(n) + " scale " + md.getScale(n) + ", want 10, 2");
            }
            if (!d.isEmpty()) {
                throw new AssertionError(String.join("; ", d));
            }
        }
    }

    void whereParams() throws SQLException {
        try (PreparedStatement ps = conn.prepareStatement("SELECT id FROM java_types WHERE c_uuid = ? "
                + "AND c_timestamptz = ? AND c_bytea = ? AND c_numeric = ? AND c_date = ? AND c_int8 = ?")) {
            ps.setObject(1, ID);
            ps.setObject(2, TIMESTAMPTZ);
            ps.setBytes(3, BYTES);
            ps.setBigDecimal(4, NUMERIC);
            ps.setObject(5, DATE);
            ps.setLong(6, Long.MAX_VALUE);
            try (ResultSet rs = ps.executeQuery()) {
                expect(rs.next() ? rs.getInt(1) : -1, 1, "matching id");
                expect(rs.next(), false, "a second row");
            }
        }
    }

    /**
     * Arrays of java_types' row 1 value and another, set with setArray and
     * compared with = ANY(?): each must select row 1 (issue 22). pgjdbc
     * sends them typed, in text, and binary once the statement is prepared
     * on the server (the fifth run).
     */
    void anyArrays() throws SQLException {
        Object[][] cases = {
            {"c_text", "text", new String[] {TEXT, "zz"}},
            {"c_varchar", "varchar", new String[] {"mallard", "zz"}},
            {"c_date", "date", new java.sql.Date[] {java.sql.Date.valueOf(DATE), java.sql.Date.valueOf("2001-01-01")}},
            {"c_numeric", "numeric", new BigDecimal[] {NUMERIC, new BigDecimal("0.50")}},
            {"c_uuid", "uuid", new UUID[] {ID, new UUID(1, 2)}},
            {"c_bool", "bool", new Boolean[] {true, false}},
            {"c_int4", "int4", new Integer[] {-2147483648, 7}},
            {"c_float8", "float8", new Double[] {2.718281828459045, 0.5}},
        };
        for (Object[] c : cases) {
            try (PreparedStatement ps = conn.prepareStatement("SELECT id FROM java_types WHERE " + c[0] + " = ANY(?)")) {
                for (int run = 1; run <= 6; run++) {
                    ps.setArray(1, conn.createArrayOf((String) c[1], (Object[]) c[2]));
                    try (ResultSet rs = ps.executeQuery()) {
                        expect(rs.next() ? rs.getInt(1) : -1, 1, c[0] + " = ANY(?), run " + run);
                        expect(rs.next(), false, c[0] + " = ANY(?): a second row");
                    }
                }
            }
        }
    }

    /** The values of java_prep's row i, so each run of a statement differs. */
    static Object[] prepRow(int i) {
        return new Object[] {i, 1_000_000_000_000L * i, i + 0.25, DATE.plusDays(i), TIMESTAMPTZ.plusMinutes(i),
            new UUID(0x1234L, i), new byte[] {(byte) i, 0, (byte) 0xff}, new Integer[] {i, -i}, "row " + i};
    }

    void insertPrepared() throws SQLException {
        try (PreparedStatement ps = conn.prepareStatement("INSERT INTO java_prep VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)")) {
            for (int i = 1; i <= 10; i++) {
                Object[] r = prepRow(i);
                ps.setInt(1, (Integer) r[0]);
                ps.setLong(2, (Long) r[1]);
                ps.setDouble(3, (Double) r[2]);
                ps.setObject(4, r[3]);
                ps.setObject(5, r[4]);
                ps.setObject(6, r[5]);
                ps.setBytes(7, (byte[]) r[6]);
                ps.setArray(8, conn.createArrayOf("int4", (Integer[]) r[7]));
                ps.setString(9, (String) r[8]);
                expect(ps.executeUpdate(), 1, "update count of run " + i);
            }
            expect(ps.unwrap(PGStatement.class).isUseServerPrepare(), true, "server-prepared after 10 runs");
        }
        try (Statement st = conn.createStatement(); ResultSet rs = st.executeQuery("SELECT count(*) FROM java_prep")) {
            rs.next();
            expect(rs.getLong(1), 10L, "rows");
        }
    }

    void selectPrepared() throws SQLException {
        try (PreparedStatement ps = conn.prepareStatement(
                "SELECT id, n, x, d, ts, u, b, ia, t FROM java_prep WHERE id = ? AND n > ?")) {
            for (int i = 1; i <= 10; i++) {
                Object[] r = prepRow(i);
                ps.setInt(1, i);
                ps.setLong(2, i);
                try (ResultSet rs = ps.executeQuery()) {
                    String run = "run " + i + ": ";
                    expect(rs.next(), true, run + "a row");
                    expect(rs.getObject(1), r[0], run + "id");
                    expect(rs.getObject(2), r[1], run + "n");
                    expect(rs.getObject(3), r[2], run + "x");
                    expect(rs.getObject(4, LocalDate.class), r[3], run + "d");
                    expect(rs.getObject(5, OffsetDateTime.class).toInstant(), ((OffsetDateTime) r[4]).toInstant(), run + "ts");
                    expect(rs.getObject(6), r[5], run + "u");
                    expect(Arrays.toString(rs.getBytes(7)), Arrays.toString((byte[]) r[6]), run + "b");
                    expect(Arrays.toString((Object[]) rs.getArray(8).getArray()), Arrays.toString((Integer[]) r[7]), run + "ia");
                    expect(rs.getString(9), r[8], run + "t");
                    expect(rs.next(), false, run + "a second row");
                }
            }
            expect(ps.unwrap(PGStatement.class).isUseServerPrepare(), true, "server-prepared after 10 runs");
        }
    }

    void selectListParameter() throws SQLException {
        try (PreparedStatement ps = conn.prepareStatement("SELECT n + ?, ? FROM java_prep WHERE id = 3")) {
            ps.setLong(1, 7);
            ps.setString(2, "seven");
            try (ResultSet rs = ps.executeQuery()) {
                expect(rs.getMetaData().getColumnCount(), 2, "column count");
                expect(rs.next(), true, "a row");
                expect(rs.getObject(1), 3_000_000_000_007L, "n + ?");
                expect(rs.getObject(2), "seven", "?");
            }
        }
    }

    void batch() throws SQLException {
        try (PreparedStatement ps = conn.prepareStatement("INSERT INTO java_batch (id, name) VALUES (?, ?)")) {
            for (int i = 1; i <= 50; i++) {
                ps.setInt(1, i);
                ps.setString(2, "name " + i);
                ps.addBatch();
            }
            int[] counts = ps.executeBatch();
            expect(counts.length, 50, "update counts");
            for (int c : counts) {
                expect(c, 1, "update count");
            }
        }
        try (Statement st = conn.createStatement();
             ResultSet rs = st.executeQuery("SELECT count(*), sum(id), max(name) FROM java_batch")) {
            rs.next();
            expect(List.of(rs.getLong(1), rs.getLong(2), rs.getString(3)), List.of(50L, 1275L, "name 9"), "count, sum, max");
        }
    }

    void fetchSize() throws SQLException {
        try (Statement st = conn.createStatement()) {
            st.execute("INSERT INTO java_big SELECT g, 'label ' || g FROM generate_series(1, 1000) AS s(g)");
        }
        conn.setAutoCommit(false);
        limitedExecutes = 0;
        try (PreparedStatement ps = conn.prepareStatement("SELECT id, label FROM java_big ORDER BY id")) {
            ps.setFetchSize(100);
            try (ResultSet rs = ps.executeQuery()) {
                int n = 0;
                while (rs.next()) {
                    n++;
                    expect(rs.getInt(1), n, "id of row " + n);
                    expect(rs.getString(2), "label " + n, "label of row " + n);
                }
                expect(n, 1000, "rows");
            }
            if (limitedExecutes < 10) {
                throw new AssertionError("pgjdbc sent " + limitedExecutes + " Execute messages with limit 100, want 10 or more");
            }
            conn.commit();
        } finally {
            conn.rollback();
            conn.setAutoCommit(true);
        }
    }

    void tables() throws SQLException {
        Set<String> got = new HashSet<>();
        try (ResultSet rs = conn.getMetaData().getTables(null, null, "java\\_%", new String[] {"TABLE"})) {
            while (rs.next()) {
                got.add(rs.getString("TABLE_NAME"));
                expect(rs.getString("TABLE_TYPE"), "TABLE", "TABLE_TYPE of " + rs.getString("TABLE_NAME"));
            }
        }
        expect(got, Set.of("java_types", "java_prep", "java_batch", "java_big", "java_interval"), "tables");
    }

    void columns() throws SQLException {
        List<String> d = new ArrayList<>();
        List<String> names = new ArrayList<>();
        try (ResultSet rs = conn.getMetaData().getColumns(null, null, "java_types", "%")) {
            while (rs.next()) {
                String name = rs.getString("COLUMN_NAME");
                names.add(name);
                String[] want = column(name);
                if (want == null) {
                    continue;
                }
                String typeName = rs.getString("TYPE_NAME");
                if (!want[2].equals(typeName) && !(isString(want[2]) && isString(typeName))) {
                    d.add(name + ": TYPE_NAME " + typeName + ", want " + want[2]);
                }
                int dataType = rs.getInt("DATA_TYPE");
                if (dataType != typeCode(want[3])) {
                    d.add(name + ": DATA_TYPE " + dataType + ", want " + want[3] + " (" + typeCode(want[3]) + ")");
                }
                expect(rs.getInt("ORDINAL_POSITION"), names.size(), name + " ORDINAL_POSITION");
                if (name.equals("id") && rs.getInt("NULLABLE") != DatabaseMetaData.columnNoNulls) {
                    d.add("id: NULLABLE " + rs.getInt("NULLABLE") + ", want columnNoNulls");
                }
                if (name.equals("c_numeric") && (rs.getInt("COLUMN_SIZE") != 10 || rs.getInt("DECIMAL_DIGITS") != 2)) {
                    d.add("c_numeric: COLUMN_SIZE " + rs.getInt("COLUMN_SIZE") + " DECIMAL_DIGITS "
                          + rs.getInt("DECIMAL_DIGITS") + ", want 10, 2");
                }
            }
        }
        expect(names, Arrays.stream(COLUMNS).map(c -> c[0]).toList(), "columns");
        if (!d.isEmpty()) {
            throw new AssertionError(String.join("; ", d));
        }
    }

    void primaryKeys() throws SQLException {
        List<String> got = new ArrayList<>();
        try (ResultSet rs = conn.getMetaData().getPrimaryKeys(null, null, "java_types")) {
            while (rs.next()) {
                got.add(rs.getString("COLUMN_NAME") + "#" + rs.getInt("KEY_SEQ"));
            }
        }
        expect(got, List.of("id#1"), "primary key columns");
    }

    void typeInfo() throws SQLException {
        Map<String, Integer> got = new HashMap<>();
        try (ResultSet rs = conn.getMetaData().getTypeInfo()) {
            while (rs.next()) {
                got.put(rs.getString("TYPE_NAME"), rs.getInt("DATA_TYPE"));
            }
        }
        Map<String, Integer> want = Map.of("bool", Types.BIT, "int4", Types.INTEGER, "int8", Types.BIGINT,
            "text", Types.VARCHAR, "numeric", Types.NUMERIC, "timestamptz", Types.TIMESTAMP,
            "bytea", Types.BINARY, "uuid", Types.OTHER, "_int4", Types.ARRAY);
        List<String> d = new ArrayList<>();
        want.forEach((name, type) -> {
            if (!type.equals(got.get(name))) {
                d.add(name + ": " + got.get(name) + ", want " + type);
            }
        });
        if (!d.isEmpty()) {
            throw new AssertionError(got.size() + " types; " + String.join("; ", d));
        }
    }

    void expectState(String want, String sql) throws SQLException {
        try (Statement st = conn.createStatement()) {
            st.execute(sql);
        } catch (SQLException e) {
            if (!want.equals(e.getSQLState())) {
                throw new AssertionError("got SQLSTATE " + e.getSQLState() + " (" + firstLine(e) + "), want " + want);
            }
            return;
        }
        throw new AssertionError("no error, want SQLSTATE " + want);
    }

    void abortedTransaction() throws SQLException {
        conn.setAutoCommit(false);
        try {
            expectState("42P01", "SELECT * FROM java_no_such_table");
            expectState("25P02", "SELECT 1");
        } finally {
            conn.rollback();
            conn.setAutoCommit(true);
        }
    }

    void transaction() throws SQLException {
        conn.setAutoCommit(false);
        try (Statement st = conn.createStatement()) {
            st.executeUpdate("INSERT INTO java_batch VALUES (100, 'rolled back')");
            expect(count(conn, 100), 1L, "own uncommitted row");
            expect(count(other, 100), 0L, "other session sees uncommitted row");
            conn.rollback();
            expect(count(conn, 100), 0L, "rows after rollback");
            st.executeUpdate("INSERT INTO java_batch VALUES (101, 'committed')");
            conn.commit();
            expect(count(other, 101), 1L, "other session sees committed row");
        } finally {
            conn.rollback();
            conn.setAutoCommit(true);
        }
    }

    static long count(Connection c, int id) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement("SELECT count(*) FROM java_batch WHERE id = ?")) {
            ps.setInt(1, id);
            try (ResultSet rs = ps.executeQuery()) {
                rs.next();
                return rs.getLong(1);
            }
        }
    }

    // ---- helpers -------------------------------------------------------

    void check(String name, Check c) {
        sent.clear();
        try {
            c.run();
            passed++;
            System.out.println("PASS java: " + name);
        } catch (Throwable t) {
            failed++;
            String state = t instanceof SQLException ? " [SQLSTATE " + ((SQLException) t).getSQLState() + "]" : "";
            System.out.println("FAIL java: " + name + ": " + t.getClass().getSimpleName() + ": " + firstLine(t) + state);
            if (!(t instanceof SQLException) && !(t instanceof AssertionError)) {
                for (StackTraceElement e : t.getStackTrace()) {
                    if (e.getClassName().equals(Scenario.class.getName())) {
                        System.out.println("    at " + e);
                        break;
                    }
                }
            }
            for (String s : sent) {
                System.out.println("    sent: " + (s.length() > 2000 ? s.substring(0, 2000) + "..." : s));
            }
        }
        System.out.flush();
    }

    /** recordSent keeps the last statement pgjdbc sent, from its protocol log. */
    void recordSent() {
        Logger log = Logger.getLogger("org.postgresql");
        log.setLevel(Level.FINEST);
        log.setUseParentHandlers(false);
        SimpleFormatter f = new SimpleFormatter();
        log.addHandler(new Handler() {
            @Override public void publish(LogRecord r) {
                String m = f.formatMessage(r);
                if (m.contains("FE=> Execute(") && m.contains("limit=100)")) {
                    limitedExecutes++;
                }
                if (m.contains("FE=> Parse(") || m.contains("FE=> SimpleQuery(")) {
                    synchronized (sent) {
                        sent.clear();
                        sent.add(m.trim());
                    }
                }
            }
            @Override public void flush() {}
            @Override public void close() {}
        });
    }

    static String columnList() {
        return String.join(", ", Arrays.stream(COLUMNS).map(c -> c[0]).toList());
    }

    static String[] column(String name) {
        return Arrays.stream(COLUMNS).filter(c -> c[0].equals(name)).findFirst().orElse(null);
    }

    /** DuckDB has one string type: a text or varchar column may be either. */
    static boolean isString(String typeName) {
        return "text".equals(typeName) || "varchar".equals(typeName);
    }

    static int typeCode(String name) {
        try {
            return Types.class.getField(name).getInt(null);
        } catch (ReflectiveOperationException e) {
            throw new IllegalArgumentException(name, e);
        }
    }

    static PGInterval interval() {
        return new PGInterval(1, 2, 3, 4, 5, 6.5);
    }

    static PGobject json() throws SQLException {
        PGobject o = new PGobject();
        o.setType("json");
        o.setValue(JSON);
        return o;
    }

    static void same(List<String> d, String name, Object got, Object want) {
        if (!Objects.equals(got, want) || (got != null && want != null && got.getClass() != want.getClass())) {
            d.add(name + ": got " + show(got) + ", want " + show(want));
        }
    }

    static void classIs(List<String> d, String name, Object got, Class<?> want) {
        if (got == null || got.getClass() != want) {
            d.add(name + ": getObject gave " + show(got) + ", want a " + want.getName());
        }
    }

    static void sameArray(List<String> d, String name, Object got, Object[] want) throws SQLException {
        if (!(got instanceof Array)) {
            d.add(name + ": got " + show(got) + ", want java.sql.Array");
            return;
        }
        Object elems = ((Array) got).getArray();
        if (!(elems instanceof Object[]) || !Arrays.equals((Object[]) elems, want)
                || elems.getClass() != want.getClass()) {
            d.add(name + ": got " + show(elems) + ", want " + show(want));
        }
    }

    static void expect(Object got, Object want, String what) {
        if (!Objects.equals(got, want)) {
            throw new AssertionError(what + ": got " + show(got) + ", want " + show(want));
        }
    }

    static String show(Object v) {
        if (v == null) {
            return "null";
        }
        String s = v instanceof Object[] ? Arrays.toString((Object[]) v)
                 : v instanceof byte[] ? Arrays.toString((byte[]) v) : v.toString();
        return s + " (" + v.getClass().getSimpleName() + ")";
    }

    static String firstLine(Throwable t) {
        String m = String.valueOf(t.getMessage());
        int nl = m.indexOf('\n');
        return nl < 0 ? m : m.substring(0, nl);
    }

    static void closeQuietly(Connection c) {
        if (c != null) {
            try {
                c.close();
            } catch (SQLException ignored) {
                // the scenario is over; a failed close changes no result
            }
        }
    }
}
