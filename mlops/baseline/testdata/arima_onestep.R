# One-step test MSE of R's forecast::auto.arima, per series, the reference
# BenchmarkARIMAParity compares Mallard's arima with.
# Usage: Rscript arima_onestep.R in.csv period train out.csv
# in.csv holds one column per series; auto.arima is fitted on the first
# `train` rows of each (frequency `period`), then the fitted model, its
# parameters fixed, forecasts each later row from the rows before it
# (Arima(y, model = fit)). out.csv gets name, mse, seconds (the fit's
# elapsed time), cpu (its user + system time) and the order.
suppressMessages(library(forecast))
args <- commandArgs(trailingOnly = TRUE)
data <- read.csv(args[1], check.names = FALSE)
period <- as.integer(args[2])
train <- as.integer(args[3])
out <- data.frame(name = names(data), mse = NA_real_, seconds = NA_real_, cpu = NA_real_, order = "")
for (i in seq_along(data)) {
  y <- ts(data[[i]], frequency = period)
  took <- system.time(fit <- auto.arima(ts(y[1:train], frequency = period)))
  pred <- fitted(Arima(y, model = fit))[(train + 1):length(y)]
  out$mse[i] <- mean((y[(train + 1):length(y)] - pred)^2)
  out$seconds[i] <- took[["elapsed"]]
  out$cpu[i] <- took[["user.self"]] + took[["sys.self"]]
  out$order[i] <- paste(arimaorder(fit), collapse = " ")
}
write.csv(out, args[4], row.names = FALSE)
