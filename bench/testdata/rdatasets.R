# Writes rdatasets.csv: the panels `bench accuracy` builds from R's
# datasets package, as panel,series,row,value (row 0-based, oldest first).
#
# Run from this directory: Rscript rdatasets.R
#
# quarterly: the last 84 quarters of UKgas, JohnsonJohnson and austres
# (JohnsonJohnson has 84); monthly: the last 144 months of co2,
# AirPassengers and nottem (AirPassengers has 144).
panels <- list(
  quarterly = list(n = 84, s = list(UKgas = UKgas, JohnsonJohnson = JohnsonJohnson, austres = austres)),
  monthly = list(n = 144, s = list(co2 = co2, AirPassengers = AirPassengers, nottem = nottem))
)
out <- list()
for (p in names(panels)) {
  for (name in names(panels[[p]]$s)) {
    v <- tail(as.numeric(panels[[p]]$s[[name]]), panels[[p]]$n)
    out[[length(out) + 1]] <- data.frame(panel = p, series = name, row = seq_along(v) - 1, value = v)
  }
}
write.csv(do.call(rbind, out), "rdatasets.csv", row.names = FALSE, quote = FALSE)
