# Writes theta_reference.csv: forecast::thetaf on small series of R's
# datasets package, the reference TestThetaReference matches.
#
# Run from this directory: Rscript theta_reference.R
#
# One line per series: name, frequency m, n (the series' length),
# horizon h, thetaf's seasonality decision (1 or 0: its test
# |acf(m)| > qnorm(0.95) * sqrt((1 + 2 sum_{k<m} acf(k)^2) / n)), the
# alpha and initial level of ses() on the seasonally adjusted series,
# thetaf's drift, the series and the h-step forecasts (space separated).
suppressPackageStartupMessages(library(forecast))

decision <- function(y) {
  m <- frequency(y); n <- length(y)
  if (m <= 1 || is.constant(y) || n <= 2 * m) return(FALSE)
  r <- as.numeric(acf(y, lag.max = m, plot = FALSE)$acf)[-1]
  abs(r[m]) / sqrt((1 + 2 * sum(r[-m]^2)) / n) > qnorm(0.95)
}

series <- list(
  AirPassengers = AirPassengers, co2 = co2, nottem = nottem,
  UKgas = UKgas, JohnsonJohnson = JohnsonJohnson, austres = austres,
  WWWusage = WWWusage, Nile = Nile, lynx = lynx,
  USAccDeaths_tail = ts(tail(as.numeric(USAccDeaths), 48), frequency = 12),
  # seasons the test rejects: |acf(m)| / its bound 0.20 and 1.01 < 1.645
  LakeHuron_12 = ts(as.numeric(LakeHuron), frequency = 12),
  discoveries_4 = ts(as.numeric(discoveries), frequency = 4)
)
lines <- character(0)
for (name in names(series)) {
  y <- series[[name]]
  h <- if (frequency(y) > 1) 2 * frequency(y) else 10
  f <- thetaf(y, h = h)
  s <- decision(y)
  x <- if (s) seasadj(decompose(y, type = "multiplicative")) else y
  l0 <- ses(x)$model$par[["l"]]
  lines <- c(lines, paste(name, frequency(y), length(y), h, as.integer(s),
    sprintf("%.10g", f$model$alpha), sprintf("%.10g", l0), sprintf("%.10g", f$model$drift),
    paste(sprintf("%.10g", as.numeric(y)), collapse = " "),
    paste(sprintf("%.10g", as.numeric(f$mean)), collapse = " "), sep = ","))
}
writeLines(c("name,m,n,h,seasonal,alpha,l0,drift,series,forecast", lines), "theta_reference.csv")
