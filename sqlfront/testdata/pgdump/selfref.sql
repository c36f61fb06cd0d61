-- A foreign key that references its own table (each employee's manager is
-- an employee), which pg_dump adds after the rows: Mallard copies the rows
-- back a level of the hierarchy at a time, so the key is enforced. The rows
-- are inserted children first, so that the dump lists them in that order.
CREATE TABLE public.employee (id integer PRIMARY KEY, name text NOT NULL, manager_id integer REFERENCES public.employee(id) DEFERRABLE INITIALLY DEFERRED);
BEGIN;
INSERT INTO public.employee VALUES (5, 'e', 4), (4, 'd', 2), (3, 'c', 1), (2, 'b', 1), (1, 'a', NULL), (6, 'f', NULL);
COMMIT;
