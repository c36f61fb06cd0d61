'use strict';
// node-postgres (pg) against mallard: parameterised queries ($1...), every
// type read back, result field type OIDs, named prepared statements, error
// SQLSTATEs, transactions, and pg-cursor (a portal read in batches). Prints "PASS node: name" or "FAIL node: name:
// why" per check and exits 1 when any failed. scripts/test-clients.sh runs it
// with PGHOST, PGPORT, PGUSER and PGDATABASE set to a mallard it started.

process.env.TZ = 'UTC'; // pg parses date and timestamp values in local time
const assert = require('node:assert/strict');
const { Client } = require('pg');
const Cursor = require('pg-cursor');

const TABLE = 'node_types';

// COLUMNS: name, SQL type, and the OID Postgres reports in RowDescription.
const COLUMNS = [
  ['id', 'integer PRIMARY KEY', 23],
  ['c_bool', 'boolean', 16],
  ['c_int2', 'smallint', 21],
  ['c_int4', 'integer', 23],
  ['c_int8', 'bigint', 20],
  ['c_float4', 'real', 700],
  ['c_float8', 'double precision', 701],
  ['c_numeric', 'numeric(10,2)', 1700],
  ['c_text', 'text', 25],
  ['c_varchar', 'varchar(20)', 1043],
  ['c_bytea', 'bytea', 17],
  ['c_date', 'date', 1082],
  ['c_time', 'time', 1083],
  ['c_timestamp', 'timestamp', 1114],
  ['c_timestamptz', 'timestamptz', 1184],
  ['c_interval', 'interval', 1186],
  ['c_uuid', 'uuid', 2950],
  ['c_json', 'json', 114],
  ['c_int_array', 'integer[]', 1007],
  ['c_text_array', 'text[]', 1009],
];
const NAMES = COLUMNS.map((c) => c[0]);
// DuckDB has one string type: a text or varchar column may report either OID.
const STRING_OIDS = [25, 1043];

const TEXT = 'héllo, "wörld" \\ 🦆';
const BYTES = Buffer.from([0x00, 0x01, 0xde, 0xad, 0xbe, 0xef, 0xff]);
const TIMESTAMPTZ = new Date('2024-02-29T13:45:30.123Z');
const JSON_VALUE = { a: [1, 2, { b: null }], c: 'd' };

// PARAMS: what the scenario binds for row 1, in NAMES order.
const PARAMS = [1, true, 32767, -2147483648, 9223372036854775807n, 3.5, 2.718281828459045,
  '12345678.90', TEXT, 'mallard', BYTES, '2024-02-29', '13:45:30.123456',
  '2024-02-29 13:45:30.123456', TIMESTAMPTZ, '1 year 2 months 3 days 04:05:06.5',
  'a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11', JSON_VALUE, [1, null, -3],
  ['plain', 'with space', 'with,comma', 'with "quote"', '', null]];

// EXPECTED: what pg returns for row 1 with its default type parsers
// (int8 and numeric as strings, date and timestamps as Date, time as string).
const EXPECTED = {
  id: 1,
  c_bool: true,
  c_int2: 32767,
  c_int4: -2147483648,
  c_int8: '9223372036854775807',
  c_float4: 3.5,
  c_float8: 2.718281828459045,
  c_numeric: '12345678.90',
  c_text: TEXT,
  c_varchar: 'mallard',
  c_bytea: BYTES,
  c_date: new Date('2024-02-29T00:00:00Z'),
  c_time: '13:45:30.123456',
  c_timestamp: new Date('2024-02-29T13:45:30.123Z'),
  c_timestamptz: TIMESTAMPTZ,
  c_interval: { years: 1, months: 2, days: 3, hours: 4, minutes: 5, seconds: 6, milliseconds: 500 },
  c_uuid: 'a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11',
  c_json: JSON_VALUE,
  c_int_array: [1, null, -3],
  c_text_array: ['plain', 'with space', 'with,comma', 'with "quote"', '', null],
};

let passed = 0;
let failed = 0;
let lastSQL = '';

async function check(name, fn) {
  try {
    await fn();
    passed++;
    console.log(`PASS node: ${name}`);
  } catch (err) {
    failed++;
    const first = String(err && err.message).split('\n')[0];
    const code = err && err.code && /^[0-9A-Z]{5}$/.test(err.code) ? ` [SQLSTATE ${err.code}]` : '';
    console.log(`FAIL node: ${name}: ${err && err.name}: ${first}${code}`);
    if (err && err.code === 'ERR_ASSERTION' && err.message.includes('\n')) {
      err.message.split('\n').slice(1, 12).forEach((l) => console.log(`    ${l}`));
    }
    if (lastSQL) console.log(`    sent: ${lastSQL.replace(/\s+/g, ' ').slice(0, 2000)}`);
  }
}

// connect returns a client whose queries record the last SQL text they sent.
async function connect() {
  const client = new Client(); // PGHOST, PGPORT, PGUSER, PGDATABASE
  const query = client.query.bind(client);
  client.query = (text, ...rest) => {
    lastSQL = typeof text === 'string' ? text : (text && text.text) || '';
    return query(text, ...rest);
  };
  await client.connect();
  return client;
}

async function expectCode(code, promise) {
  try {
    await promise;
  } catch (err) {
    assert.equal(err.code, code, `SQLSTATE (${err.message})`);
    return;
  }
  assert.fail(`no error, want SQLSTATE ${code}`);
}

function normaliseInterval(v) {
  if (v === null || typeof v !== 'object') return v;
  const out = {};
  for (const k of ['years', 'months', 'days', 'hours', 'minutes', 'seconds', 'milliseconds']) {
    if (v[k]) out[k] = v[k];
  }
  return out;
}

function compareRow(got, want) {
  const diffs = [];
  for (const name of NAMES) {
    let g = got[name];
    const w = want[name];
    if (name === 'c_interval') g = normaliseInterval(g);
    try {
      assert.deepStrictEqual(g, w);
    } catch {
      diffs.push(`${name}: got ${show(g)}, want ${show(w)}`);
    }
  }
  assert.ok(diffs.length === 0, diffs.join('; '));
}

function show(v) {
  if (Buffer.isBuffer(v)) return `Buffer<${v.toString('hex')}>`;
  if (v instanceof Date) return `Date(${isNaN(v) ? 'invalid' : v.toISOString()})`;
  return JSON.stringify(v, (k, x) => (typeof x === 'bigint' ? `${x}n` : x));
}

async function main() {
  let conn;
  let other;
  await check('connect', async () => { conn = await connect(); });
  await check('connect a second session', async () => { other = await connect(); });
  if (!conn || !other) return;

  const cols = NAMES.join(', ');
  await check('create table', async () => {
    await conn.query(`DROP TABLE IF EXISTS ${TABLE}`);
    await conn.query(`CREATE TABLE ${TABLE} (${COLUMNS.map((c) => `${c[0]} ${c[1]}`).join(', ')})`);
  });

  await check('insert with parameters', async () => {
    const marks = NAMES.map((_, i) => `$${i + 1}`).join(', ');
    const sql = `INSERT INTO ${TABLE} (${cols}) VALUES (${marks})`;
    const r1 = await conn.query(sql, PARAMS);
    assert.equal(r1.rowCount, 1, 'rowCount');
    const nulls = NAMES.map((n) => (n === 'id' ? 2 : null));
    const r2 = await conn.query(sql, nulls);
    assert.equal(r2.rowCount, 1, 'rowCount of the NULL row');
  });

  await check('select all types back', async () => {
    const r = await conn.query(`SELECT ${cols} FROM ${TABLE} WHERE id = $1`, [1]);
    assert.equal(r.rows.length, 1, 'rows');
    compareRow(r.rows[0], EXPECTED);
  });

  await check('select NULLs back', async () => {
    const r = await conn.query(`SELECT ${cols} FROM ${TABLE} WHERE id = $1`, [2]);
    assert.equal(r.rows.length, 1, 'rows');
    const want = Object.fromEntries(NAMES.map((n) => [n, n === 'id' ? 2 : null]));
    compareRow(r.rows[0], want);
  });

  await check('microseconds kept (::text)', async () => {
    const r = await conn.query(`SELECT c_time::text AS t, c_timestamp::text AS ts FROM ${TABLE} WHERE id = 1`);
    assert.deepStrictEqual(r.rows[0], { t: '13:45:30.123456', ts: '2024-02-29 13:45:30.123456' });
  });

  await check('result field type OIDs', async () => {
    const r = await conn.query(`SELECT ${cols} FROM ${TABLE} WHERE false`);
    const diffs = [];
    r.fields.forEach((f, i) => {
      const want = COLUMNS[i][2];
      const ok = STRING_OIDS.includes(want) ? STRING_OIDS.includes(f.dataTypeID) : f.dataTypeID === want;
      if (f.name !== COLUMNS[i][0] || !ok) diffs.push(`${f.name}: OID ${f.dataTypeID}, want ${COLUMNS[i][0]} ${want}`);
    });
    assert.equal(r.fields.length, COLUMNS.length, 'field count');
    assert.ok(diffs.length === 0, diffs.join('; '));
  });

  await check('parameters in WHERE', async () => {
    const r = await conn.query(
      `SELECT id FROM ${TABLE} WHERE c_int8 = $1 AND c_numeric = $2 AND c_bytea = $3 AND c_uuid = $4 `
      + 'AND c_timestamptz = $5 AND c_date = $6 AND c_text = $7 AND c_int_array = $8',
      [PARAMS[4], PARAMS[7], BYTES, PARAMS[16], TIMESTAMPTZ, '2024-02-29', TEXT, [1, null, -3]]);
    assert.deepStrictEqual(r.rows, [{ id: 1 }]);
  });

  await check('arrays as = ANY($1) parameters', async () => {
    // node-postgres sends a JavaScript array untyped, in Postgres' array
    // text; the server types it by the column, as Postgres does (issue 22).
    const cases = [['c_text', [TEXT, 'zz']], ['c_varchar', ['mallard', 'zz']], ['c_date', ['2024-02-29', '2001-01-01']],
      ['c_numeric', ['12345678.90', '0.50']], ['c_uuid', [PARAMS[16], 'b0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11']],
      ['c_bool', [true, false]], ['c_int4', [-2147483648, 7]], ['c_float8', [2.718281828459045, 0.5]]];
    for (const [col, values] of cases) {
      const r = await conn.query(`SELECT id FROM ${TABLE} WHERE ${col} = ANY($1)`, [values]);
      assert.deepStrictEqual(r.rows, [{ id: 1 }], `${col} = ANY($1)`);
    }
  });

  await check('parameters in the select list', async () => {
    const r = await conn.query('SELECT $1::integer + 1 AS n, $2::text AS t', [41, 'x']);
    assert.deepStrictEqual(r.rows, [{ n: 42, t: 'x' }]);
  });

  await check('named prepared statement run 10 times', async () => {
    await conn.query('DROP TABLE IF EXISTS node_prep');
    await conn.query('CREATE TABLE node_prep (id integer PRIMARY KEY, label text, seen_at timestamptz)');
    for (let i = 1; i <= 10; i++) {
      await conn.query({ name: 'node_prep_insert', text: 'INSERT INTO node_prep VALUES ($1, $2, $3)',
        values: [i, `label ${i}`, new Date(TIMESTAMPTZ.getTime() + i * 60000)] });
    }
    for (let i = 1; i <= 10; i++) {
      const r = await conn.query({ name: 'node_prep_select', text: 'SELECT id, label, seen_at FROM node_prep WHERE id = $1',
        values: [i] });
      assert.deepStrictEqual(r.rows, [{ id: i, label: `label ${i}`, seen_at: new Date(TIMESTAMPTZ.getTime() + i * 60000) }],
        `run ${i}`);
    }
  });

  await check('rowMode array over 1000 rows', async () => {
    const r = await conn.query({ text: "SELECT g::integer, 'row ' || g FROM generate_series(1, 1000) AS s(g) ORDER BY g",
      rowMode: 'array' });
    assert.equal(r.rows.length, 1000, 'rows');
    r.rows.forEach((row, i) => assert.deepStrictEqual(row, [i + 1, `row ${i + 1}`]));
  });

  await check('error 42P01 missing table', () => expectCode('42P01', conn.query('SELECT * FROM node_no_such_table')));
  await check('error 23505 duplicate primary key',
    () => expectCode('23505', conn.query(`INSERT INTO ${TABLE} (id) VALUES ($1)`, [1])));
  await check('error 42601 syntax', () => expectCode('42601', conn.query('SELEC 1')));
  await check('error 25P02 in failed transaction', async () => {
    await conn.query('BEGIN');
    try {
      await expectCode('42P01', conn.query('SELECT * FROM node_no_such_table'));
      await expectCode('25P02', conn.query('SELECT 1'));
    } finally {
      await conn.query('ROLLBACK');
    }
  });

  await check('transaction commit visible, rollback not', async () => {
    const count = async (c, id) => Number((await c.query(`SELECT count(*) AS n FROM ${TABLE} WHERE id = $1`, [id])).rows[0].n);
    await conn.query('BEGIN');
    try {
      await conn.query(`INSERT INTO ${TABLE} (id, c_text) VALUES ($1, $2)`, [100, 'rolled back']);
      assert.equal(await count(conn, 100), 1, 'own uncommitted row');
      assert.equal(await count(other, 100), 0, 'other session sees uncommitted row');
    } finally {
      await conn.query('ROLLBACK');
    }
    assert.equal(await count(conn, 100), 0, 'rows after rollback');
    await conn.query('BEGIN');
    await conn.query(`INSERT INTO ${TABLE} (id, c_text) VALUES ($1, $2)`, [101, 'committed']);
    await conn.query('COMMIT');
    assert.equal(await count(other, 101), 1, 'other session sees committed row');
  });

  await check('Mallard: train_gat and forecast with parameters', async () => {
    await conn.query('DROP TABLE IF EXISTS node_sales');
    await conn.query('DROP TABLE IF EXISTS node_wide');
    await conn.query(`CREATE TABLE node_sales AS SELECT i // 3 AS period, 'e' || (i % 3) AS entity,
      sin(i // 3 * 0.7 + i % 3) * 10 + i % 5 AS units FROM range(150) t(i)`);
    await conn.query(`CREATE TABLE node_wide AS SELECT * FROM pivot_entity_time($1, entity := 'entity',
      time := 'period', value := $2)`, ['node_sales', 'units']);
    const trained = await conn.query('SELECT epoch FROM train_gat($1, model := $2, epochs := $3::int, window := 4, season := 1)',
      ['node_wide', 'node_gat', 2]);
    assert.deepStrictEqual(trained.rows.map((r) => Number(r.epoch)), [1, 2], 'epochs (bigint, a string in node-postgres)');
    for (let steps = 1; steps <= 3; steps++) {
      const r = await conn.query({ name: 'node_forecast', text: 'SELECT * FROM forecast($1, steps := $2::int)',
        values: ['node_gat', steps] });
      assert.deepStrictEqual(r.fields.slice(0, 4).map((f) => f.name), ['step', 'period', 'entity', 'prediction'], 'columns');
      assert.equal(r.rows.length, 3 * steps, `rows of ${steps} steps`);
      assert.equal(typeof r.rows[0].prediction, 'number', 'prediction is a number');
    }
    const n = await conn.query('SELECT count(*)::int AS n FROM forecast($1, steps := 1)', ['node_gat']);
    assert.deepStrictEqual(n.rows, [{ n: 3 }], 'count(*)::int');
  });

  await check('pg-cursor: 1000 rows read 128 at a time, with a parameter', async () => {
    const cursor = conn.query(new Cursor('SELECT i, i * 2 AS twice FROM range($1::int) t(i) ORDER BY i', [1000]));
    let seen = 0;
    let batches = 0;
    for (let rows = await cursor.read(128); rows.length > 0; rows = await cursor.read(128)) {
      batches++;
      for (const r of rows) {
        assert.deepStrictEqual([Number(r.i), Number(r.twice)], [seen, 2 * seen], 'row in order');
        seen++;
      }
    }
    await cursor.close();
    assert.deepStrictEqual([seen, batches], [1000, 8], 'rows and batches');
  });
  await check('pg-cursor closed early, then the connection works', async () => {
    const cursor = conn.query(new Cursor('SELECT * FROM forecast($1, steps := 5)', ['node_gat']));
    const first = await cursor.read(4);
    assert.equal(first.length, 4, 'the first rows of forecast');
    assert.equal(typeof first[0].prediction, 'number', 'prediction is a number');
    await cursor.close();
    const r = await conn.query('SELECT 1 AS one');
    assert.deepStrictEqual(r.rows, [{ one: 1 }], 'a query after the cursor');
  });

  await conn.end();
  await other.end();
}

main()
  .catch((err) => { failed++; console.log(`FAIL node: scenario: ${err && err.stack}`); })
  .finally(() => process.exit(failed ? 1 : 0));
