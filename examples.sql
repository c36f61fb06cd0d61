-- Mallard tour. Start the server with `make run`, then:
--   psql -h 127.0.0.1 -p 5433 -U mallard -f examples.sql
-- Every statement runs on Mallard's embedded DuckDB database.
-- The tour keeps its tables in a schema of its own, tour, and starts by
-- dropping what an earlier run left (its tables there, and its models),
-- so it runs again with the same output and never touches tables of yours.
CREATE SCHEMA IF NOT EXISTS tour;
SET search_path = tour;
SELECT count(mlops.drop(name)) >= 0 AS fresh
FROM (SELECT DISTINCT name FROM mlops.models WHERE name IN ('unemployment_gat', 'movies', 'movies_rank', 'movies_vae', 'tour_peng', 'tour_mpg'));

-- 1. Plain SQL: tables, inserts, queries, as in Postgres.
DROP TABLE IF EXISTS tour_sales;
CREATE TABLE tour_sales (region VARCHAR, month DATE, units INTEGER, price DECIMAL(8,2));
INSERT INTO tour_sales VALUES
  ('north', DATE '2024-01-01', 120, 9.99), ('north', DATE '2024-02-01', 135, 9.99),
  ('south', DATE '2024-01-01',  80, 10.49), ('south', DATE '2024-02-01',  95, 10.49);
SELECT region, sum(units) AS units, sum(units * price) AS revenue
FROM tour_sales GROUP BY region ORDER BY region;
-- Results have Postgres' types: a sum of integers is bigint, their average
-- an exact numeric, a difference of dates an integer number of days.
SELECT pg_typeof(sum(units)) AS sum_type, avg(units) AS mean_units,
       max(month) - min(month) AS days, date_trunc('month', max(month)) AS last_month
FROM tour_sales;

-- 2. DuckDB's own SQL works too: generate a million rows and summarise them.
--    setseed makes random() draw the same numbers on every run.
SELECT setseed(0.42);
SELECT count(*) AS n, round(avg(x), 2) AS mean
FROM (SELECT random() AS x FROM range(1000000));
-- PIVOT finds its columns in the data: one per month here.
PIVOT tour_sales ON strftime(month, '%Y-%m') USING sum(units) GROUP BY region ORDER BY region;

-- 3. Transactions behave like Postgres: a failed block must be rolled back.
BEGIN;
INSERT INTO tour_sales VALUES ('east', DATE '2024-01-01', 10, 1.00);
ROLLBACK;
SELECT count(*) AS regions FROM (SELECT DISTINCT region FROM tour_sales);

-- 4. COPY streams data in and out (psql's \copy uses it).
COPY (SELECT * FROM tour_sales ORDER BY region, month) TO STDOUT WITH (FORMAT csv, HEADER);

-- 5. It passes for Postgres 15 where clients look: settings, the catalog, cursors.
SHOW server_version;
SET application_name = 'mallard-tour';
SELECT current_setting('application_name') AS app, version() LIKE 'PostgreSQL 15%' AS looks_like_pg15;
SELECT table_name, table_type FROM information_schema.tables
WHERE table_schema = 'tour' AND table_name LIKE 'tour%' ORDER BY table_name;
SELECT a.attname, pg_catalog.format_type(a.atttypid, a.atttypmod) AS type
FROM pg_catalog.pg_attribute a WHERE a.attrelid = 'tour_sales'::regclass AND a.attnum > 0
ORDER BY a.attnum;
BEGIN;
DECLARE tour CURSOR FOR SELECT region, units FROM tour_sales ORDER BY units DESC;
FETCH 2 FROM tour;
CLOSE tour;
COMMIT;

DROP TABLE tour_sales;

-- 6. Data preparation. Events arrive long, one row per (entity, time); models
--    want a wide Time x Entity matrix, tamed by a signed log and standardised
--    with statistics of the training rows only. Monthly unemployment of 14
--    industries (U.S. BLS via vega-datasets), loaded with COPY through \copy.
DROP TABLE IF EXISTS unemployment_wide;
DROP TABLE IF EXISTS unemployment;
CREATE TABLE unemployment (series VARCHAR, year INTEGER, month INTEGER, count INTEGER, rate DOUBLE);
\copy unemployment FROM 'examples/data/unemployment-across-industries.csv' WITH (FORMAT csv, HEADER)
-- One row per month, one DOUBLE column per industry (names made safe: lower case, _).
CREATE TABLE unemployment_wide AS
SELECT * FROM pivot_entity_time('unemployment', entity := 'series', time := ['year', 'month'],
                                value := 'count', agg := 'sum', missing := 'error');
SELECT year, month, agriculture, construction, finance FROM unemployment_wide LIMIT 3;
-- A gap is an error by default; 'null', 'zero' or 'ffill' fill it instead.
SELECT year, month, mining_and_extraction
FROM pivot_entity_time('SELECT * FROM unemployment WHERE NOT (year = 2001 AND month = 3 AND series = ''Mining and Extraction'')',
                       entity := 'series', time := ['year', 'month'], value := 'count', missing := 'ffill')
WHERE year = 2001 AND month BETWEEN 2 AND 4;
-- signed_log(x) = sign(x)(1 + ln|x|) for |x| > 1, else x; signed_exp inverts it.
SELECT round(signed_log(1000.0), 6) AS log, round(signed_exp(signed_log(1000.0)), 6) AS back,
       signed_log(-0.5) AS small;
-- Rescale: mean and standard deviation from the first 70 % of the months only.
SELECT year, month, round(agriculture, 4) AS agriculture, round(construction, 4) AS construction
FROM rescale('unemployment_wide', train_fraction := 0.7, save_as := 'unemployment') LIMIT 3;
SELECT name, method, stats, train_rows, total_rows, round(mean[1], 4) AS mean, round(std[1], 4) AS std
FROM mlops.scalers WHERE name = 'unemployment';
-- unscale inverts a saved scaler exactly.
SELECT year, month, round(agriculture, 6) AS agriculture
FROM unscale('SELECT * FROM rescale(''unemployment_wide'')', scaler := 'unemployment') LIMIT 3;

-- 7. A graph attention network forecasts every industry: each is a node whose
--    features are its last 4 months, edges weighted by the correlation of
--    those windows. It is anchored: it starts as the statistical forecaster
--    that does best on the last 15 % of the training months (validation) and
--    learns a correction, keeping the epoch that validates best. One row (and
--    one NOTICE) per epoch arrives while it trains.
DROP TABLE IF EXISTS unemployment_scaled;
CREATE TABLE unemployment_scaled AS SELECT * FROM rescale('unemployment_wide', save_as := 'unemployment');
SELECT epoch, round(train_mse, 3) AS train_mse, round(val_mse, 3) AS val_mse, round(test_mse, 3) AS test_mse
FROM train_gat('unemployment_scaled', model := 'unemployment_gat', window := 4, epochs := 40,
               lr := 0.005, momentum := 0.9, batch_size := 32, train_fraction := 0.7, workers := 2,
               seed := 0, scaler := 'unemployment')
WHERE epoch % 10 = 0;
-- The GAT against a ladder of statistical forecasters fitted on the same
-- training months: validation MSE (what choices read), test MSE, and the
-- test MSE in original units (thousands squared).
SELECT method, round(val_mse, 4) AS val_mse, round(test_mse, 4) AS test_mse,
       round(test_mse_original, -2) AS test_mse_original FROM evaluate('unemployment_gat');
-- Three months ahead, from every test month: MASE (below 1 beats the
-- seasonal naive forecast's in-sample error) and MSE relative to last_value.
SELECT method, horizon, round(mase, 3) AS mase, round(rel_mse, 3) AS rel_mse
FROM evaluate('unemployment_gat', horizon := 3)
WHERE method IN ('gat', 'last_value', 'seasonal_naive', 'theta') ORDER BY method, horizon;
-- Forecasts in original units, rolling forward two months, with 90 % intervals:
-- each industry's own width, never below zero for a count.
SELECT step, entity, round(prediction) AS prediction, round(lo) AS lo, round(hi) AS hi
FROM forecast('unemployment_gat', steps := 2, level := 0.9)
WHERE entity IN ('construction', 'finance') ORDER BY entity, step;
-- Any method of the ladder forecasts too; 'auto' takes each industry's best on validation.
SELECT step, entity, round(prediction) AS prediction
FROM forecast('unemployment_gat', steps := 1, method := 'auto') WHERE entity = 'finance';
-- Which method each industry gets, and how each does on the test months.
SELECT entity, method, round(val_mse, 4) AS val_mse, round(test_mse, 4) AS test_mse
FROM evaluate_entities('unemployment_gat') WHERE chosen ORDER BY entity LIMIT 5;
-- What the last layer attends to when it forecasts construction.
SELECT source, round(weight, 3) AS weight
FROM attention('unemployment_gat') WHERE target = 'construction' ORDER BY weight DESC LIMIT 3;
-- Months the model did not expect: outside the industry's 99 % interval
-- around its one-step forecast, and far out among its errors.
SELECT year, month, entity, round(value) AS value, round(expected) AS expected, round(score, 1) AS score
FROM detect_anomalies('unemployment_gat') WHERE is_anomaly ORDER BY score DESC LIMIT 5;

-- 8. The model registry. Every training run is recorded, with one row per
--    epoch committed as it ends: another session can watch a run live and
--    stop it with mlops.cancel(run_id).
SELECT model, version, status, epochs_done, best_epoch
FROM mlops.training_runs ORDER BY run_id DESC LIMIT 1;
SELECT epoch, round(train_loss, 3) AS train_loss, round(test_loss, 3) AS test_loss
FROM mlops.training_metrics
WHERE run_id = (SELECT max(run_id) FROM mlops.training_runs) AND epoch % 20 = 0;
-- A second version, trained with Adam. It deploys itself only if its
-- validation loss beats the deployed version's (never the test loss;
-- deploy := 'always' or 'never' overrides).
SELECT count(*) AS epochs
FROM train_gat('unemployment_scaled', model := 'unemployment_gat', epochs := 40,
               optimizer := 'adam', lr := 0.01, scaler := 'unemployment');
SELECT version, status, deployed, round(val_loss, 4) AS val_loss, round(test_loss, 4) AS test_loss, rows, entities, artifact_size > 0 AS saved
FROM mlops.models WHERE name = 'unemployment_gat' ORDER BY version DESC LIMIT 2;
-- Pin the newest version, then return to the one deployed before it.
SELECT mlops.deploy('unemployment_gat', (SELECT max(version) FROM mlops.models WHERE name = 'unemployment_gat'));
SELECT mlops.rollback('unemployment_gat');
-- 'name@version' addresses a version explicitly.
SELECT count(*) AS forecasts FROM forecast('unemployment_gat@1');
-- Continue the newest version from its last checkpoint, up to epoch 60 (early
-- stopping on validation may end it sooner):
-- a new version; the data must be what it was trained on.
SELECT min(epoch) AS first_epoch, max(epoch) AS last_epoch
FROM train_gat('unemployment_scaled', resume := 'unemployment_gat', epochs := 60);
-- Drop that version: its row and its weights go together.
SELECT mlops.drop('unemployment_gat', (SELECT max(version) FROM mlops.models WHERE name = 'unemployment_gat'));
-- Nothing is training now, so this cancels nothing.
SELECT mlops.cancel(run_id) FROM mlops.training_runs WHERE status IN ('queued', 'training');

-- 9. A recommender. An autoencoder of the AutoRec family learns each user's
--    ratings from the ratings table alone: sparse rows, no users x items
--    matrix. MovieLens small (GroupLens, non-commercial; see examples/data).
DROP TABLE IF EXISTS ratings;
DROP TABLE IF EXISTS movies;
CREATE TABLE ratings (userId INTEGER, movieId INTEGER, rating DOUBLE, timestamp BIGINT);
\copy ratings FROM 'examples/data/movielens-small/ratings.csv' WITH (FORMAT csv, HEADER)
CREATE TABLE movies (movieId INTEGER, title VARCHAR, year INTEGER, genres VARCHAR);
\copy movies FROM 'examples/data/movielens-small/movies.csv' WITH (FORMAT csv, HEADER, NULL 'NA')
-- One row per epoch: RMSE on the 90 % it trains on and the 10 % held out,
-- and how well it ranks held-out favourites; the dashboard shows titles.
SELECT epoch, round(train_rmse, 2) AS train_rmse, round(test_rmse, 2) AS test_rmse,
       round(recall_at_10, 3) AS recall_at_10, round(ndcg_at_10, 3) AS ndcg_at_10
FROM train_recommender('ratings', model := 'movies', user := 'userId', item := 'movieId',
                       epochs := 10, workers := 2, item_names := 'movies.title')
WHERE epoch % 3 = 1;
-- Against two baselines: each movie's mean rating, and the most rated movies.
SELECT method, round(test_rmse, 2) AS test_rmse, round(recall_at_10, 3) AS recall_at_10,
       round(ndcg_at_10, 3) AS ndcg_at_10 FROM evaluate('movies');
-- Top five for user 42, with the movies' own columns; movies they rated are left out.
SELECT rank, title, year, round(score, 2) AS predicted FROM recommend('movies', user_id := 42, k := 5, items := 'movies');
-- A user the model has not seen gets the most rated movies when asked to.
SELECT rank, title, round(score, 2) AS mean_rating
FROM recommend('movies', user_id := 100000, k := 3, fallback := 'popular', items := 'movies');
-- Per row over a table of users: a list of (item, score) per user.
SELECT u.userId, m.title, round(r.score, 2) AS predicted
FROM (VALUES (1), (2)) AS u(userId), unnest(recommendations('movies', u.userId, 2)) AS t(r)
JOIN movies m ON m.movieId = r.item ORDER BY u.userId, r.score DESC;
-- Train on from the newest version's weights: a new version whose epochs
-- number on from its 10, with the columns and options it was trained with
-- (the optimiser's state starts afresh). Kept out of serving here.
SELECT epoch, round(train_rmse, 2) AS train_rmse, round(test_rmse, 2) AS test_rmse
FROM train_recommender('ratings', resume := 'movies', epochs := 11, deploy := 'never');

-- Ranking what a user will pick is another objective: a multinomial
-- denoising autoencoder (Mult-DAE) learns a softmax over every movie from
-- each user's liked movies (rated 4 or more). It predicts no ratings
-- (test_rmse is NULL) and ranks about twice as well as popularity. EASE, a
-- closed-form item-item model fitted when first asked, is scored beside it.
SELECT count(*) AS epochs
FROM train_recommender('ratings', model := 'movies_rank', user := 'userId', item := 'movieId',
                       objective := 'ranking', epochs := 20, workers := 2);
SELECT method, round(test_rmse, 2) AS test_rmse, round(recall_at_10, 3) AS recall_at_10, round(ndcg_at_10, 3) AS ndcg_at_10,
       round(recall_at_20, 3) AS recall_at_20, round(ndcg_at_100, 3) AS ndcg_at_100 FROM evaluate('movies_rank');
-- Its score is the probability that the user picks the movie next.
SELECT rank, title, round(score, 4) AS probability FROM recommend('movies_rank', user_id := 42, k := 5, items := 'movies');
-- Someone the model never saw, from the movies they liked: the Star Wars trilogy.
SELECT rank, title FROM recommend_for('movies_rank', history := [260, 1196, 1210], k := 5, items := 'movies');
-- People who liked The Empire Strikes Back also liked (cosine of the
-- decoder's item embeddings):
SELECT rank, title, round(score, 3) AS cosine FROM similar_items('movies_rank', 1196, k := 5, items := 'movies');
-- The variational variant (Mult-VAE), with the exact softmax over these
-- 9,066 movies, ranks best, within 0.9 of EASE: the one to pick for
-- ranking, for about 5 times the training time.
SELECT count(*) AS epochs
FROM train_recommender('ratings', model := 'movies_vae', user := 'userId', item := 'movieId',
                       objective := 'ranking_vae', epochs := 20, workers := 2);
SELECT method, round(recall_at_10, 3) AS recall_at_10, round(ndcg_at_10, 3) AS ndcg_at_10
FROM evaluate('movies_vae') WHERE method = 'autorec';

-- 10. Supervised learning. A labelled table in, a model out: the penguins
--     of the Palmer archipelago (vega-datasets), species from measurements.
--     Text columns are one-hot encoded and numbers standardised on the
--     training rows; the default network is a small MLP, checked against a
--     linear model and the majority class on the test rows.
DROP TABLE IF EXISTS penguins;
CREATE TABLE penguins (species VARCHAR, island VARCHAR, bill_length_mm DOUBLE, bill_depth_mm DOUBLE,
    flipper_length_mm DOUBLE, body_mass_g DOUBLE, sex VARCHAR);
\copy penguins FROM 'examples/data/penguins.csv' WITH (FORMAT csv, HEADER)
-- Every epoch also arrives as a NOTICE, as for train_gat; the tour quiets
-- them here (mlops.training_metrics keeps them all).
SET client_min_messages = warning;
SELECT epoch, round(val_loss, 4) AS val_loss, round(val_accuracy, 3) AS val_accuracy
FROM train_classifier('penguins', label := 'species', model := 'tour_peng', seed := 7) WHERE epoch % 20 = 0;
SELECT method, rows, round(accuracy, 4) AS accuracy, round(log_loss, 4) AS log_loss FROM evaluate('tour_peng');
SELECT * FROM confusion_matrix('tour_peng') WHERE count > 0;
-- predict adds prediction and probability to any table or query's rows.
SELECT island, round(bill_length_mm, 1) AS bill_length_mm, prediction, round(probability, 3) AS probability
FROM predict('tour_peng', source := 'SELECT * FROM penguins WHERE sex IS NULL') LIMIT 3;
-- A regressor: miles per gallon of 1970s cars.
DROP TABLE IF EXISTS cars;
CREATE TABLE cars (name VARCHAR, mpg DOUBLE, cylinders INTEGER, displacement DOUBLE, horsepower DOUBLE,
    weight_lbs DOUBLE, acceleration DOUBLE, model_year INTEGER, origin VARCHAR);
\copy cars FROM 'examples/data/cars.csv' WITH (FORMAT csv, HEADER)
SELECT count(*) AS epochs
FROM train_regressor('SELECT * FROM cars WHERE mpg IS NOT NULL', target := 'mpg', model := 'tour_mpg', seed := 7);
SELECT method, round(rmse, 3) AS rmse, round(r2, 3) AS r2 FROM evaluate('tour_mpg');
-- Which inputs it leans on: the rise in validation RMSE when one column's
-- values are shuffled (permutation importance, 5 shuffles each).
SELECT feature, round(importance, 2) AS rmse_increase, round(std, 2) AS std
FROM feature_importance('tour_mpg') LIMIT 3;
RESET client_min_messages;

-- 11. The dashboard. `make run` also serves http://127.0.0.1:8080/: every
--     model and run, live loss plots, the GAT's truth against prediction,
--     correlation heatmap and entity graph, and the recommender's top k.
--     What the GAT pages draw is kept with each finished version:
SELECT name, version, json_extract(data, '$.total_entities') AS entities,
       json_array_length(json_extract(data, '$.times')) AS time_steps,
       json_extract(data, '$.split') AS first_test_row, json_extract_string(data, '$.units') AS units
FROM mlops.reports WHERE name = 'unemployment_gat' ORDER BY version;

-- 12. Operating Mallard. Every session is listed in pg_stat_activity, as in
--     Postgres, and pg_cancel_backend / pg_terminate_backend signal one by
--     its pid (the one a client gets at connection; pg_backend_pid()).
SELECT usename, application_name, state, backend_type FROM pg_stat_activity WHERE pid = pg_backend_pid();
SELECT pg_cancel_backend(2147483647) AS cancelled;
