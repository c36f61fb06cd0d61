-- session_user is the session's role, mallard_user(). PostgreSQL's grammar writes it
-- without parentheses; the planner calls it as session_user().
CREATE OR REPLACE MACRO mallard_catalog.pg.session_user() AS mallard_catalog.pg.mallard_user();
