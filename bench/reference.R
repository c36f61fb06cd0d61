# Reference forecasts for `bench accuracy -reference r`.
#
# Usage: Rscript reference.R IN.csv TRAIN SEASON OUT_PRED.csv OUT_TIME.csv
#
# IN.csv holds one column per series (a header of names, no row labels),
# the rows Mallard's baselines see. For every series, ets(), auto.arima()
# and the Theta method of thetaf() are fitted on rows 1..TRAIN as a ts of
# frequency SEASON; their parameters (and initial states) are then held
# fixed and the whole series is filtered with them, so that the
# prediction of row t is the one-step forecast from the rows before t:
# ets(model = fit, use.initial.values = TRUE) and Arima(model = fit), as
# forecast's `model =` argument refits nothing. thetaf has no `model =`
# argument: its fit (the seasonality decision, the decomposition's
# figure, ses()'s alpha and initial level, the drift) is kept and the
# level filtered, the forecast of row t being thetaf's formula with t
# rows seen. OUT_PRED.csv gets method,series,row,prediction for the rows
# after TRAIN (row 0-based); OUT_TIME.csv method,series,seconds (the fit
# and the filtering). A method that fails on a series gets NA predictions
# there, and its error goes to stderr.
suppressPackageStartupMessages(library(forecast))
args <- commandArgs(trailingOnly = TRUE)
x <- read.csv(args[1], check.names = FALSE)
ntrain <- as.integer(args[2])
m <- as.integer(args[3])
nrow <- nrow(x)

theta_fit <- function(y, m) {
  n <- length(y)
  seasonal <- FALSE
  if (m > 1 && !is.constant(y) && n > 2 * m) {
    r <- as.numeric(acf(y, lag.max = m, plot = FALSE)$acf)[-1]
    stat <- sqrt((1 + 2 * sum(r[-m]^2)) / n)
    seasonal <- abs(r[m]) / stat > qnorm(0.95)
  }
  fig <- rep(1, max(m, 1))
  if (seasonal) {
    d <- decompose(ts(y, frequency = m), type = "multiplicative")
    if (all(abs(d$figure) >= 1e-4)) fig <- d$figure else seasonal <- FALSE
  }
  adj <- y / rep(fig, length.out = n)
  s <- ets(adj, "ANN", opt.crit = "mse")
  list(alpha = max(1e-10, s$par["alpha"]), l0 = s$par["l"],
       drift = lsfit(0:(n - 1), adj)$coefficients[2] / 2,
       fig = fig, seasonal = seasonal)
}

theta_onestep <- function(f, y) {
  a <- f$alpha; l <- f$l0; m <- length(f$fig)
  out <- numeric(length(y))
  for (t in seq_along(y)) {
    s <- f$fig[(t - 1) %% m + 1]
    k <- t - 1  # rows seen before row t
    out[t] <- (l + f$drift * (1 - (1 - a)^k) / a) * s
    l <- l + a * (y[t] / s - l)
  }
  out
}

methods <- list(
  ets = function(tr, full) {
    fit <- ets(ts(tr, frequency = m))
    fitted(ets(ts(full, frequency = m), model = fit, use.initial.values = TRUE))
  },
  auto_arima = function(tr, full) {
    fit <- auto.arima(ts(tr, frequency = m))
    fitted(Arima(ts(full, frequency = m), model = fit))
  },
  thetaf = function(tr, full) theta_onestep(theta_fit(tr, m), full)
)

pred <- list(); times <- list()
for (name in names(x)) {
  y <- as.numeric(x[[name]])
  for (meth in names(methods)) {
    t0 <- proc.time()[["elapsed"]]
    p <- tryCatch(as.numeric(methods[[meth]](y[1:ntrain], y)), error = function(e) {
      message(meth, " on ", name, ": ", conditionMessage(e))
      rep(NA_real_, nrow)
    })
    el <- proc.time()[["elapsed"]] - t0
    rows <- (ntrain + 1):nrow
    pred[[length(pred) + 1]] <- data.frame(method = meth, series = name, row = rows - 1, prediction = p[rows])
    times[[length(times) + 1]] <- data.frame(method = meth, series = name, seconds = el)
  }
}
write.csv(do.call(rbind, pred), args[4], row.names = FALSE)
write.csv(do.call(rbind, times), args[5], row.names = FALSE)
