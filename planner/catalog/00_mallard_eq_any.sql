-- mallard_eq_any(value, arr) is PostgreSQL's value = ANY(arr) for an array
-- arr, without the subquery DuckDB reads value = ANY(arr) as: DuckDB refuses
-- a subquery in an outer join's condition, where the planner calls this
-- instead (SQLAlchemy joins pg_attribute ON a.attnum = ANY(ix.indkey)).
-- Like PostgreSQL, it is false for an empty array, true if an element
-- equals value, else NULL if value, arr or an element is NULL.
CREATE OR REPLACE MACRO mallard_catalog.pg.mallard_eq_any(value, arr) AS
    CASE
        WHEN arr IS NULL THEN NULL
        WHEN len(arr) = 0 THEN false
        WHEN list_contains(arr, value) THEN true
        WHEN value IS NULL OR list_count(arr) < len(arr) THEN NULL
        ELSE false
    END;
