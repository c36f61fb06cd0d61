# Writes arima_reference.json: for a handful of R's data sets, what R's
# forecast::auto.arima (forecast 8.20, defaults) chooses and forecasts,
# the reference TestARIMAReference checks Mallard's arima against.
# Run from this directory: Rscript arima_reference.R
suppressMessages(library(forecast))
suppressMessages(library(urca))

series <- list(
  air_passengers_log = log(AirPassengers),
  co2 = co2,
  uk_gas_log = log(UKgas),
  austres = austres,
  johnson_johnson_log = log(JohnsonJohnson),
  nottem = nottem,
  lh = lh,
  www_usage = WWWusage,
  nile = Nile,
  lake_huron_short = ts(LakeHuron[1:30])
)

num <- function(x) paste0("[", paste(sprintf("%.17g", as.numeric(x)), collapse = ", "), "]")
str <- function(x) paste0("[", paste0('"', x, '"', collapse = ", "), "]")

entries <- character()
for (name in names(series)) {
  y <- series[[name]]
  m <- frequency(y)
  lags <- trunc(3 * sqrt(length(y)) / 13)
  kpss <- ur.kpss(as.numeric(y), type = "mu", use.lag = lags)@teststat[1]
  fit <- auto.arima(y)
  h <- if (m > 1) 2 * m else 10
  fc <- forecast(fit, h = h)$mean
  ord <- arimaorder(fit)
  if (length(ord) == 3) ord <- c(ord, 0, 0, 0)
  strength <- if (m > 1) forecast:::seas.heuristic(y) else 0
  entries <- c(entries, paste0(
    '  {"name": "', name, '", "period": ', m,
    ', "values": ', num(y),
    ', "kpss_lags": ', lags, ', "kpss": ', sprintf("%.17g", kpss),
    ', "ndiffs": ', ndiffs(y),
    ', "seasonal_strength": ', sprintf("%.17g", strength),
    ', "order": ', num(ord[1:6]),
    ', "constant": ', tolower(as.character(length(grep("intercept|drift", names(coef(fit)))) > 0)),
    ', "coef_names": ', if (length(coef(fit))) str(names(coef(fit))) else "[]",
    ', "coef": ', if (length(coef(fit))) num(coef(fit)) else "[]",
    ', "aicc": ', sprintf("%.17g", fit$aicc),
    ', "loglik": ', sprintf("%.17g", fit$loglik),
    ', "forecast": ', num(fc), "}"))
}
writeLines(c("[", paste(entries, collapse = ",\n"), "]"), "arima_reference.json")
