-- current_role is the session's role, mallard_user(). PostgreSQL's grammar writes it
-- without parentheses; the planner calls it as current_role().
CREATE OR REPLACE MACRO mallard_catalog.pg.current_role() AS mallard_catalog.pg.mallard_user();
