-- user is the session's role, mallard_user(). PostgreSQL's grammar writes it
-- without parentheses; the planner calls it as user().
CREATE OR REPLACE MACRO mallard_catalog.pg.user() AS mallard_catalog.pg.mallard_user();
