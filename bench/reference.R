# Reference forecasts for `bench accuracy -reference r`.
#
# Usage: Rscript reference.R IN.csv TRAIN SEASON OUT_PRED.csv OUT_TIME.csv [H ORIGINS OUT_MULTI.csv]
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
#
# With H, ORIGINS (0-based row counts, comma-separated) and OUT_MULTI.csv,
# each fitted model also forecasts H steps from each origin o, having seen
# rows 1..o, its parameters still fixed: forecast() of ets(model = fit,
# use.initial.values = TRUE) and of Arima(model = fit) on the first o
# rows, and thetaf's formula with the level filtered over them.
# OUT_MULTI.csv gets method,series,origin,step,prediction.
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

# theta_multi forecasts h steps from o rows seen of y with thetaf's fit f.
theta_multi <- function(f, y, o, h) {
  a <- f$alpha; l <- f$l0; m <- length(f$fig)
  if (o > 0) for (t in 1:o) l <- l + a * (y[t] / f$fig[(t - 1) %% m + 1] - l)
  k <- 1:h
  (l + f$drift * ((k - 1) + (1 - (1 - a)^o) / a)) * f$fig[(o + k - 1) %% m + 1]
}

H <- if (length(args) >= 8) as.integer(args[6]) else 0L
origins <- if (H > 0) as.integer(strsplit(args[7], ",")[[1]]) else integer(0)

# Each method returns list(onestep = the one-step predictions of every row,
# multi = a function of the origin giving H steps ahead).
methods <- list(
  ets = function(tr, full) {
    fit <- ets(ts(tr, frequency = m))
    list(onestep = fitted(ets(ts(full, frequency = m), model = fit, use.initial.values = TRUE)),
         multi = function(o) forecast(ets(ts(full[1:o], frequency = m), model = fit, use.initial.values = TRUE), h = H)$mean)
  },
  auto_arima = function(tr, full) {
    fit <- auto.arima(ts(tr, frequency = m))
    list(onestep = fitted(Arima(ts(full, frequency = m), model = fit)),
         multi = function(o) forecast(Arima(ts(full[1:o], frequency = m), model = fit), h = H)$mean)
  },
  thetaf = function(tr, full) {
    f <- theta_fit(tr, m)
    list(onestep = theta_onestep(f, full), multi = function(o) theta_multi(f, full, o, H))
  }
)

pred <- list(); times <- list(); multi <- list()
for (name in names(x)) {
  y <- as.numeric(x[[name]])
  for (meth in names(methods)) {
    t0 <- proc.time()[["elapsed"]]
    r <- tryCatch(methods[[meth]](y[1:ntrain], y), error = function(e) {
      message(meth, " on ", name, ": ", conditionMessage(e))
      NULL
    })
    p <- if (is.null(r)) rep(NA_real_, nrow) else as.numeric(r$onestep)
    el <- proc.time()[["elapsed"]] - t0
    rows <- (ntrain + 1):nrow
    pred[[length(pred) + 1]] <- data.frame(method = meth, series = name, row = rows - 1, prediction = p[rows])
    times[[length(times) + 1]] <- data.frame(method = meth, series = name, seconds = el)
    for (o in origins) {
      fc <- if (is.null(r)) rep(NA_real_, H) else tryCatch(as.numeric(r$multi(o)), error = function(e) rep(NA_real_, H))
      multi[[length(multi) + 1]] <- data.frame(method = meth, series = name, origin = o, step = 1:H, prediction = fc)
    }
  }
}
write.csv(do.call(rbind, pred), args[4], row.names = FALSE)
write.csv(do.call(rbind, times), args[5], row.names = FALSE)
if (H > 0) write.csv(do.call(rbind, multi), args[8], row.names = FALSE)
