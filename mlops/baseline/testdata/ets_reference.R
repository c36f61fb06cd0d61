# Writes ets_reference.json: forecast::ets(y) with its defaults on a few
# small series from R's datasets, with what Mallard's ETS is tested
# against (mlops/baseline/ets_reference_test.go). Run from this folder:
#   Rscript ets_reference.R > ets_reference.json
suppressMessages(library(forecast))

z <- function(x) (x - mean(x)) / sd(x)
series <- list(
  AirPassengers = AirPassengers,
  UKgas = UKgas,
  JohnsonJohnson = JohnsonJohnson,
  USAccDeaths = USAccDeaths,
  austres = austres,
  nottem = nottem,
  co2 = co2,
  Nile = Nile,
  WWWusage = WWWusage,
  UKgas_short = window(UKgas, end = c(1963, 4)),
  AirPassengers_logz = ts(z(log(AirPassengers)), frequency = 12),
  nottem_z = ts(z(nottem), frequency = 12),
  LakeHuron_z = ts(z(LakeHuron), frequency = 1),
  Nile_z_season30 = ts(z(Nile), frequency = 30)
)

num <- function(x) paste0("[", paste(sprintf("%.17g", as.numeric(x)), collapse = ", "), "]")
out <- character(0)
for (name in names(series)) {
  y <- series[[name]]
  m <- frequency(y)
  fit <- suppressWarnings(ets(y))
  h <- if (m > 1 && m <= 24) 2 * m else 10
  state <- forecast(fit, h = h, simulate = TRUE, npaths = 2, PI = TRUE)$mean
  default <- forecast(fit, h = h, PI = FALSE)$mean
  par <- fit$par
  get <- function(k, d) if (is.na(par[k])) d else par[[k]]
  c3 <- fit$components
  form <- paste(c3[1], paste0(c3[2], ifelse(c3[4] == "TRUE", "d", "")), c3[3], sep = ",")
  out <- c(out, sprintf(paste0(
    '{"name": "%s", "season": %d, "y": %s, "form": "%s", ',
    '"alpha": %.17g, "beta": %.17g, "gamma": %.17g, "phi": %.17g, ',
    '"initstate": %s, "loglik": %.17g, "aicc": %.17g, ',
    '"forecast": %s, "forecast_default": %s}'),
    name, as.integer(m), num(y), form,
    get("alpha", 0), get("beta", 0), get("gamma", 0), get("phi", 1),
    num(fit$initstate), fit$loglik, fit$aicc, num(state), num(default)))
}
cat("[\n", paste(out, collapse = ",\n"), "\n]\n", sep = "")
