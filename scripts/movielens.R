#!/usr/bin/env Rscript
# Writes MovieLens small (GroupLens' "ml-latest-small", 2016 release) as the
# examples and tests read it, from the movielens data set of the R package
# dslabs (Debian r-cran-dslabs; scripts/install-deps.sh installs it), into
# the directory given (default examples/data/movielens-small):
#   ratings.csv  userId, movieId, rating, timestamp: 100,004 ratings, in the
#                data set's order (grouped by user);
#   movies.csv   movieId, title, year, genres: each movie once, in the order
#                of its first rating; NA where unknown.
# The files are not committed: GroupLens' terms forbid commercial use
# without permission, so the repository does not redistribute them. `make`
# writes them before the tests and the tour that read them.
args <- commandArgs(trailingOnly = TRUE)
out <- if (length(args) > 0) args[1] else file.path("examples", "data", "movielens-small")
if (!requireNamespace("dslabs", quietly = TRUE)) {
  stop("the R package dslabs is not installed (Debian: r-cran-dslabs; scripts/install-deps.sh installs it)")
}
data("movielens", package = "dslabs")
dir.create(out, showWarnings = FALSE, recursive = TRUE)
write.csv(movielens[, c("userId", "movieId", "rating", "timestamp")], file.path(out, "ratings.csv"), row.names = FALSE)
movies <- movielens[!duplicated(movielens$movieId), c("movieId", "title", "year", "genres")]
write.csv(movies, file.path(out, "movies.csv"), row.names = FALSE)
