-- One column of each type the README lists, with NULLs and edge values;
-- bytea and arrays are in copyonly.sql.
CREATE TABLE public.every_type (
  id serial PRIMARY KEY, b boolean, i2 smallint, i4 integer, i8 bigint, f4 real, f8 double precision,
  n numeric(12,3), t text, vc varchar(20), bc char(4), d date, tm time, ts timestamp,
  tz timestamptz, iv interval, u uuid, j json, jb jsonb
);
INSERT INTO public.every_type (b, i2, i4, i8, f4, f8, n, t, vc, bc, d, tm, ts, tz, iv, u, j, jb) VALUES
 (true, -32768, 2147483647, -9223372036854775808, 1.5, 0.1, 123456789.125, 'line1
line2', 'vé', 'ab', '2024-02-29', '23:59:59.5', '2024-01-01 00:00:00', '2024-06-01 12:00:00+02', '1 day 02:03:04', 'a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11', '{"a": [1, 2]}', '{"k": "v"}'),
 (NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL),
 (false, 0, 0, 0, -0.25, 1e100, 0, '', '', '', '1999-12-31', '00:00', '1970-01-01 00:00:01', '1970-01-01 00:00:00+00', '-1 mon', '00000000-0000-0000-0000-000000000000', '[]', '[]');
