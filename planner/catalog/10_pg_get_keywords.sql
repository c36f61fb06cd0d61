-- pg_get_keywords() lists the SQL key words PostgreSQL 15 recognizes
-- (mallard_keywords). pgjdbc builds DatabaseMetaData.getSQLKeywords() from
-- it.
CREATE OR REPLACE MACRO mallard_catalog.pg.pg_get_keywords() AS TABLE
SELECT word, catcode, barelabel, catdesc, baredesc FROM mallard_catalog.pg.mallard_keywords;
