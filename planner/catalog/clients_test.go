package catalog_test

import (
	"fmt"
	"strings"
	"testing"
	"time"
)

// clientQueries are catalog queries that psql, pgjdbc and SQLAlchemy send,
// rewritten by hand the way the planner rewrites them: pg_catalog.X and X
// become mallard_catalog.pg.X, information_schema.X mallard_catalog.info.X,
// 'x'::regclass mallard_regclass('x'), oid::regclass mallard_regclass_name,
// current_user current_user(), a ~ 'x' regexp_matches(a, 'x') (DuckDB's ~
// matches the whole string). {child} is the OID of table child, {parent} of
// parent. Each must run; want, when set, is its answer.
var clientQueries = []struct {
	name, query string
	want        [][]string
}{
	{"psql \\d columns", `SELECT a.attname, mallard_catalog.pg.format_type(a.atttypid, a.atttypmod),
		(SELECT mallard_catalog.pg.pg_get_expr(d.adbin, d.adrelid, true) FROM mallard_catalog.pg.pg_attrdef d
		 WHERE d.adrelid = a.attrelid AND d.adnum = a.attnum AND a.atthasdef),
		a.attnotnull,
		(SELECT c.collname FROM mallard_catalog.pg.pg_collation c, mallard_catalog.pg.pg_type t
		 WHERE c.oid = a.attcollation AND t.oid = a.atttypid AND a.attcollation <> t.typcollation) AS attcollation,
		a.attidentity, a.attgenerated, a.attstorage, a.attcompression AS attcompression,
		CASE WHEN a.attstattarget=-1 THEN NULL ELSE a.attstattarget END AS attstattarget,
		mallard_catalog.pg.col_description(a.attrelid, a.attnum)
	FROM mallard_catalog.pg.pg_attribute a
	WHERE a.attrelid = '{parent}' AND a.attnum > 0 AND NOT a.attisdropped ORDER BY a.attnum`,
		[][]string{{"id", "integer", "NULL", "t", "NULL", "", "", "p", "", "NULL", "NULL"},
			{"code", "text", "NULL", "t", "NULL", "", "", "x", "", "NULL", "NULL"},
			{"price", "numeric(10,2)", "0", "f", "NULL", "", "", "m", "", "NULL", "NULL"},
			{"note", "text", "NULL", "f", "NULL", "", "", "x", "", "NULL", "free text"}}},
	{"psql \\d table", `SELECT c.relchecks, c.relkind, c.relhasindex, c.relhasrules, c.relhastriggers, c.relrowsecurity,
		c.relforcerowsecurity, false AS relhasoids, c.relispartition, '', c.reltablespace,
		CASE WHEN c.reloftype = 0 THEN '' ELSE mallard_catalog.pg.mallard_regtype_name(c.reloftype) END,
		c.relpersistence, c.relreplident, am.amname
	FROM mallard_catalog.pg.pg_class c
	LEFT JOIN mallard_catalog.pg.pg_class tc ON (c.reltoastrelid = tc.oid)
	LEFT JOIN mallard_catalog.pg.pg_am am ON (c.relam = am.oid)
	WHERE c.oid = '{child}'`, // relhastriggers: the child has a foreign key, which Postgres enforces by triggers
		[][]string{{"1", "r", "t", "f", "t", "f", "f", "f", "f", "", "0", "", "p", "d", "heap"}}},
	{"psql \\d indexes", `SELECT c2.relname, i.indisprimary, i.indisunique, i.indisclustered, i.indisvalid,
		mallard_catalog.pg.pg_get_indexdef(i.indexrelid, 0, true),
		mallard_catalog.pg.pg_get_constraintdef(con.oid, true), contype, condeferrable, condeferred,
		i.indisreplident, c2.reltablespace
	FROM mallard_catalog.pg.pg_class c, mallard_catalog.pg.pg_class c2, mallard_catalog.pg.pg_index i
	LEFT JOIN mallard_catalog.pg.pg_constraint con
		ON (conrelid = i.indrelid AND conindid = i.indexrelid AND contype IN ('p','u','x'))
	WHERE c.oid = '{child}' AND c.oid = i.indrelid AND i.indexrelid = c2.oid
	ORDER BY i.indisprimary DESC, c2.relname`,
		[][]string{
			{"child_pkey", "t", "t", "f", "t", "CREATE UNIQUE INDEX child_pkey ON public.child USING btree (id)",
				"PRIMARY KEY (id)", "p", "f", "f", "f", "0"},
			{"child_ts_idx", "f", "f", "f", "t", "CREATE INDEX child_ts_idx ON public.child USING btree (ts, d)",
				"NULL", "NULL", "NULL", "NULL", "f", "0"}}},
	{"psql \\d check constraints", `SELECT r.conname, mallard_catalog.pg.pg_get_constraintdef(r.oid, true)
	FROM mallard_catalog.pg.pg_constraint r WHERE r.conrelid = '{child}' AND r.contype = 'c' ORDER BY 1`,
		[][]string{{"child_f_check", "CHECK ((f > 0))"}}},
	{"psql \\d foreign keys", `SELECT true as sametable, conname,
		mallard_catalog.pg.pg_get_constraintdef(r.oid, true) as condef,
		mallard_catalog.pg.mallard_regclass_name(conrelid) AS ontable
	FROM mallard_catalog.pg.pg_constraint r
	WHERE r.conrelid = '{child}' AND r.contype = 'f' AND conparentid = 0 ORDER BY conname`,
		[][]string{{"t", "child_parent_id_fkey", "FOREIGN KEY (parent_id) REFERENCES parent(id)", "child"}}},
	{"psql \\d referenced by", `SELECT conname, mallard_catalog.pg.mallard_regclass_name(conrelid) AS ontable,
		mallard_catalog.pg.pg_get_constraintdef(oid, true) AS condef
	FROM mallard_catalog.pg.pg_constraint c
	WHERE confrelid IN (SELECT relid FROM mallard_catalog.pg.pg_partition_ancestors('{parent}')
		UNION ALL VALUES (mallard_catalog.pg.mallard_regclass('{parent}')))
		AND contype = 'f' AND conparentid = 0
	ORDER BY conname`,
		[][]string{{"child_parent_id_fkey", "child", "FOREIGN KEY (parent_id) REFERENCES parent(id)"}}},
	{"psql \\d policies etc.", `SELECT pol.polname, pol.polpermissive FROM mallard_catalog.pg.pg_policy pol
	WHERE pol.polrelid = '{child}' UNION ALL
	SELECT t.tgname, mallard_catalog.pg.pg_get_triggerdef(t.oid, true) IS NULL FROM mallard_catalog.pg.pg_trigger t
	WHERE t.tgrelid = '{child}' UNION ALL
	SELECT mallard_catalog.pg.mallard_regclass_name(c.oid), false
	FROM mallard_catalog.pg.pg_class c, mallard_catalog.pg.pg_inherits i
	WHERE c.oid = i.inhparent AND i.inhrelid = '{child}'`, [][]string{}},
	{"psql \\dT", `SELECT n.nspname as "Schema", mallard_catalog.pg.format_type(t.oid, NULL) AS "Name",
		mallard_catalog.pg.obj_description(t.oid, 'pg_type') as "Description"
	FROM mallard_catalog.pg.pg_type t LEFT JOIN mallard_catalog.pg.pg_namespace n ON n.oid = t.typnamespace
	WHERE (t.typrelid = 0 OR (SELECT c.relkind = 'c' FROM mallard_catalog.pg.pg_class c WHERE c.oid = t.typrelid))
		AND NOT EXISTS(SELECT 1 FROM mallard_catalog.pg.pg_type el WHERE el.oid = t.typelem AND el.typarray = t.oid)
		AND n.nspname <> 'pg_catalog' AND n.nspname <> 'information_schema'
		AND mallard_catalog.pg.pg_type_is_visible(t.oid)
	ORDER BY 1, 2`, [][]string{}},
	{"psql \\du", `SELECT r.rolname, r.rolsuper, r.rolinherit, r.rolcreaterole, r.rolcreatedb, r.rolcanlogin,
		r.rolconnlimit, r.rolvaliduntil,
		ARRAY(SELECT b.rolname FROM mallard_catalog.pg.pg_auth_members m
			JOIN mallard_catalog.pg.pg_roles b ON (m.roleid = b.oid) WHERE m.member = r.oid) as memberof,
		r.rolreplication, r.rolbypassrls
	FROM mallard_catalog.pg.pg_roles r WHERE NOT regexp_matches(r.rolname, '^pg_') ORDER BY 1`,
		[][]string{{"mallard", "t", "t", "t", "t", "t", "-1", "NULL", "{}", "t", "t"}}},
	{"psql \\dn", `SELECT n.nspname AS "Name", mallard_catalog.pg.pg_get_userbyid(n.nspowner) AS "Owner"
	FROM mallard_catalog.pg.pg_namespace n WHERE NOT regexp_matches(n.nspname, '^pg_') AND n.nspname <> 'information_schema' ORDER BY 1`,
		[][]string{{"public", "mallard"}}},
	{"psql \\df", `SELECT n.nspname as "Schema", p.proname as "Name",
		mallard_catalog.pg.pg_get_function_result(p.oid) as "Result data type",
		mallard_catalog.pg.pg_get_function_arguments(p.oid) as "Argument data types",
		CASE p.prokind WHEN 'a' THEN 'agg' WHEN 'w' THEN 'window' WHEN 'p' THEN 'proc' ELSE 'func' END as "Type"
	FROM mallard_catalog.pg.pg_proc p LEFT JOIN mallard_catalog.pg.pg_namespace n ON n.oid = p.pronamespace
	WHERE mallard_catalog.pg.pg_function_is_visible(p.oid) AND n.nspname <> 'pg_catalog' AND n.nspname <> 'information_schema'
	ORDER BY 1, 2, 4`, [][]string{}},
	{"pgjdbc getPrimaryKeys", `SELECT result.TABLE_CAT, result.TABLE_SCHEM, result.TABLE_NAME, result.COLUMN_NAME,
		result.KEY_SEQ, result.PK_NAME
	FROM (SELECT NULL AS TABLE_CAT, n.nspname AS TABLE_SCHEM, ct.relname AS TABLE_NAME, a.attname AS COLUMN_NAME,
		(mallard_catalog.info._pg_expandarray(i.indkey)).n AS KEY_SEQ, ci.relname AS PK_NAME,
		mallard_catalog.info._pg_expandarray(i.indkey) AS KEYS, a.attnum AS A_ATTNUM
		FROM mallard_catalog.pg.pg_class ct
		JOIN mallard_catalog.pg.pg_attribute a ON (ct.oid = a.attrelid)
		JOIN mallard_catalog.pg.pg_namespace n ON (ct.relnamespace = n.oid)
		JOIN mallard_catalog.pg.pg_index i ON (a.attrelid = i.indrelid)
		JOIN mallard_catalog.pg.pg_class ci ON (ci.oid = i.indexrelid)
		WHERE true AND n.nspname = E'public' AND ct.relname = E'child' AND i.indisprimary) result
	WHERE result.A_ATTNUM = (result.KEYS).x
	ORDER BY result.table_name, result.pk_name, result.key_seq`,
		[][]string{{"NULL", "public", "child", "id", "1", "child_pkey"}}},
	{"pgjdbc getImportedKeys", `SELECT NULL::text AS PKTABLE_CAT, pkn.nspname AS PKTABLE_SCHEM, pkc.relname AS PKTABLE_NAME,
		pka.attname AS PKCOLUMN_NAME, NULL::text AS FKTABLE_CAT, fkn.nspname AS FKTABLE_SCHEM, fkc.relname AS FKTABLE_NAME,
		fka.attname AS FKCOLUMN_NAME, pos.n AS KEY_SEQ,
		CASE con.confupdtype WHEN 'c' THEN 0 WHEN 'n' THEN 2 WHEN 'd' THEN 4 WHEN 'r' THEN 1 WHEN 'p' THEN 1 WHEN 'a' THEN 3 ELSE NULL END AS UPDATE_RULE,
		CASE con.confdeltype WHEN 'c' THEN 0 WHEN 'n' THEN 2 WHEN 'd' THEN 4 WHEN 'r' THEN 1 WHEN 'p' THEN 1 WHEN 'a' THEN 3 ELSE NULL END AS DELETE_RULE,
		con.conname AS FK_NAME, pkic.relname AS PK_NAME,
		CASE WHEN con.condeferrable AND con.condeferred THEN 5 WHEN con.condeferrable THEN 6 ELSE 7 END AS DEFERRABILITY
	FROM mallard_catalog.pg.pg_namespace pkn, mallard_catalog.pg.pg_class pkc, mallard_catalog.pg.pg_attribute pka,
		mallard_catalog.pg.pg_namespace fkn, mallard_catalog.pg.pg_class fkc, mallard_catalog.pg.pg_attribute fka,
		mallard_catalog.pg.pg_constraint con, generate_series(1, 32) pos(n), mallard_catalog.pg.pg_class pkic
	WHERE pkn.oid = pkc.relnamespace AND pkc.oid = pka.attrelid AND pka.attnum = con.confkey[pos.n]
		AND con.confrelid = pkc.oid AND fkn.oid = fkc.relnamespace AND fkc.oid = fka.attrelid
		AND fka.attnum = con.conkey[pos.n] AND con.conrelid = fkc.oid AND con.contype = 'f'
		AND (pkic.relkind = 'i' OR pkic.relkind = 'I') AND pkic.oid = con.conindid
		AND fkn.nspname = E'public' AND fkc.relname = E'child'
	ORDER BY pkn.nspname, pkc.relname, con.conname, pos.n`,
		[][]string{{"NULL", "public", "parent", "id", "NULL", "public", "child", "parent_id", "1", "3", "3",
			"child_parent_id_fkey", "parent_pkey", "7"}}},
	{"pgjdbc getTables", `SELECT NULL AS TABLE_CAT, n.nspname AS TABLE_SCHEM, c.relname AS TABLE_NAME,
		CASE n.nspname ~ '^pg_' OR n.nspname = 'information_schema' WHEN true THEN
			CASE WHEN n.nspname = 'pg_catalog' OR n.nspname = 'information_schema' THEN
				CASE c.relkind WHEN 'r' THEN 'SYSTEM TABLE' WHEN 'v' THEN 'SYSTEM VIEW' WHEN 'i' THEN 'SYSTEM INDEX' ELSE NULL END
			ELSE NULL END
		ELSE CASE c.relkind WHEN 'r' THEN 'TABLE' WHEN 'p' THEN 'PARTITIONED TABLE' WHEN 'i' THEN 'INDEX'
			WHEN 'S' THEN 'SEQUENCE' WHEN 'v' THEN 'VIEW' WHEN 'c' THEN 'TYPE' WHEN 'f' THEN 'FOREIGN TABLE'
			WHEN 'm' THEN 'MATERIALIZED VIEW' ELSE NULL END
		END AS TABLE_TYPE, d.description AS REMARKS
	FROM mallard_catalog.pg.pg_namespace n, mallard_catalog.pg.pg_class c
	LEFT JOIN mallard_catalog.pg.pg_description d
		ON (c.oid = d.objoid AND d.objsubid = 0 AND d.classoid = mallard_catalog.pg.mallard_regclass('pg_class'))
	WHERE c.relnamespace = n.oid AND n.nspname LIKE 'public' AND c.relkind IN ('r', 'v')
	ORDER BY TABLE_TYPE, TABLE_SCHEM, TABLE_NAME`,
		[][]string{{"NULL", "public", "child", "TABLE", "NULL"}, {"NULL", "public", "parent", "TABLE", "parents"},
			{"NULL", "public", "parent_v", "VIEW", "NULL"}}},
	{"SQLAlchemy get_indexes", `WITH idx_sq AS (
		SELECT i.indexrelid, i.indrelid, unnest(i.indkey) AS attnum, generate_subscripts(i.indkey, 1) AS ord
		FROM mallard_catalog.pg.pg_index i WHERE NOT i.indisprimary AND i.indrelid IN ('{child}')
	), attr_sq AS (
		SELECT idx_sq.indexrelid, idx_sq.indrelid, idx_sq.ord,
			CASE WHEN idx_sq.attnum = 0
				THEN mallard_catalog.pg.pg_get_indexdef(idx_sq.indexrelid, idx_sq.ord + 1, true)
				ELSE CAST(a.attname AS TEXT) END AS element,
			idx_sq.attnum = 0 AS is_expr
		FROM idx_sq LEFT JOIN mallard_catalog.pg.pg_attribute a
			ON a.attnum = idx_sq.attnum AND a.attrelid = idx_sq.indrelid
	), cols_sq AS (
		SELECT indexrelid, min(indrelid) AS indrelid, array_agg(element ORDER BY ord) AS elements,
			array_agg(is_expr ORDER BY ord) AS elements_is_expr
		FROM attr_sq GROUP BY indexrelid
	)
	SELECT i.indrelid, cls_idx.relname AS relname_index, i.indisunique,
		con.conrelid IS NOT NULL AS has_constraint, i.indoption, cls_idx.reloptions, am.amname,
		CASE WHEN i.indpred IS NOT NULL THEN mallard_catalog.pg.pg_get_expr(i.indpred, i.indrelid) END AS filter_definition,
		i.indnkeyatts, i.indnullsnotdistinct, cols_sq.elements, cols_sq.elements_is_expr
	FROM mallard_catalog.pg.pg_index i
	JOIN mallard_catalog.pg.pg_class cls_idx ON i.indexrelid = cls_idx.oid
	JOIN mallard_catalog.pg.pg_am am ON cls_idx.relam = am.oid
	LEFT JOIN cols_sq ON i.indexrelid = cols_sq.indexrelid
	LEFT JOIN mallard_catalog.pg.pg_constraint con
		ON i.indrelid = con.conrelid AND i.indexrelid = con.conindid AND con.contype IN ('p', 'u', 'x')
	WHERE i.indrelid IN ('{child}') AND NOT i.indisprimary
	ORDER BY i.indrelid, cls_idx.relname`,
		[][]string{{"{child}", "child_ts_idx", "f", "f", "{0,0}", "NULL", "btree", "NULL", "2", "f", "{ts,d}", "{f,f}"}}},
	{"information_schema columns", `SELECT column_name, data_type, is_nullable, column_default
	FROM mallard_catalog.info.columns WHERE table_schema = 'public' AND table_name = 'parent' ORDER BY ordinal_position`,
		[][]string{{"id", "integer", "NO", "NULL"}, {"code", "text", "NO", "NULL"}, {"price", "numeric", "YES", "0"},
			{"note", "text", "YES", "NULL"}}},
}

func TestClientQueries(t *testing.T) {
	_, conn := session(t, sampleDDL...)
	oids := rows(t, conn, `SELECT mallard_catalog.pg.mallard_regclass('child'), mallard_catalog.pg.mallard_regclass('parent')`)[0]
	fill := strings.NewReplacer("{child}", oids[0], "{parent}", oids[1]).Replace
	for _, tc := range clientQueries {
		t.Run(strings.ReplaceAll(tc.name, " ", "_"), func(t *testing.T) {
			start := time.Now()
			got := rows(t, conn, fill(tc.query))
			t.Logf("%v", time.Since(start))
			if tc.want == nil {
				return
			}
			want := fill(fmt.Sprintf("%q", tc.want))
			if len(got) == 0 && len(tc.want) == 0 {
				return
			}
			if fmt.Sprintf("%q", got) != want {
				t.Errorf("got  %q\nwant %s", got, want)
			}
		})
	}
}
