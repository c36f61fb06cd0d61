# One-step test MSE and fit time of forecast::ets, per series: the R side
# of BenchmarkETSAgainstR (mlops/baseline/ets_bench_test.go).
#   Rscript ets_onestep.R MATRIX.csv SEASON TRAIN_ROWS
# MATRIX.csv holds one series per column, no header. Each series is fitted
# with ets() on its first TRAIN_ROWS values; the model is then run over
# the whole series with its parameters and initial states fixed
# (use.initial.values = TRUE), and the MSE is that of its one-step
# forecasts (fitted values) of the rows after TRAIN_ROWS. Prints one line
# per series: column, MSE, fit milliseconds (elapsed, then CPU), form.
suppressMessages(library(forecast))
args <- commandArgs(trailingOnly = TRUE)
x <- as.matrix(read.csv(args[1], header = FALSE))
m <- as.integer(args[2])
train <- as.integer(args[3])
for (j in seq_len(ncol(x))) {
  y <- ts(x[, j], frequency = m)
  start <- proc.time()
  fit <- suppressWarnings(ets(ts(x[1:train, j], frequency = m)))
  took <- proc.time() - start
  ms <- 1000 * took[["elapsed"]]
  cpu <- 1000 * (took[["user.self"]] + took[["sys.self"]])
  all <- suppressWarnings(ets(y, model = fit, use.initial.values = TRUE))
  test <- (train + 1):length(y)
  mse <- mean((x[test, j] - fitted(all)[test])^2)
  cat(j, sprintf("%.17g", mse), sprintf("%.3f", ms), sprintf("%.3f", cpu), fit$method, "\n")
}
