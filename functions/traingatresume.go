//go:build duckdb_arrow

package functions

import (
	"slices"

	"github.com/mallard/mallard/mlops/gat/gatrun"
	"github.com/mallard/mallard/sqlstate"
)

// resumeFrom sets the job up to continue the version resume names (its
// latest version with weights, if it names none): that version's
// architecture and, unless the call gives them, its other options.
func resumeFrom(c *call, j *gatrun.Job, o *trainGATArgs) error {
	m, v, err := loadResumed(c, trainGATName, "gat", o.Resume)
	if err != nil {
		return err
	}
	if j.From, err = gatrun.DecodeArtifact(m.Artifact); err != nil {
		return err
	}
	j.FromRef, j.FromFingerprint = m.Ref, v.Fingerprint
	prev := j.From.Model.Config
	// The architecture is the checkpoint's; the call may repeat it, not change it.
	for _, arch := range []struct {
		field     any
		same      bool
		had, want any
	}{
		{&o.Window, prev.Window == j.Config.Window, prev.Window, j.Config.Window},
		{&o.Hidden, slices.Equal(prev.Hidden, j.Config.Hidden), prev.Hidden, j.Config.Hidden},
		{&o.Heads, prev.Heads == j.Config.Heads, prev.Heads, j.Config.Heads},
		{&o.Neighbors, prev.Neighbors == j.Config.Neighbors, prev.Neighbors, j.Config.Neighbors},
		{&o.Target, prev.Target == j.Config.Target, prev.Target, j.Config.Target},
		{&o.Highway, prev.Highway == j.Config.Highway, prev.Highway, j.Config.Highway},
		{&o.Anchor, prev.Anchor == j.Config.Anchor, prev.Anchor, j.Config.Anchor},
		{&o.Strategy, gatrun.StrategyOf(prev) == j.Config.Strategy, gatrun.StrategyOf(prev), j.Config.Strategy},
	} {
		if name := o.name(arch.field); o.explicit(arch.field) && !arch.same {
			return sqlstate.New(sqlstate.InvalidParameterValue, "%s: %s := %v differs from %v of %s, which resume continues",
				trainGATName, name, arch.want, arch.had, m.Ref).WithHint("Leave %s out to keep the checkpoint's.", name)
		}
	}
	// The call's training options override the checkpoint's.
	cfg := prev
	override(&o.given, &cfg.Epochs, &o.Epochs)
	override(&o.given, &cfg.LR, &o.LR)
	override(&o.given, &cfg.Momentum, &o.Momentum)
	override(&o.given, &cfg.Optimizer, &o.Optimizer)
	override(&o.given, &cfg.BatchSize, &o.BatchSize)
	override(&o.given, &cfg.TrainFraction, &o.TrainFraction)
	override(&o.given, &cfg.Patience, &o.Patience)
	override(&o.given, &cfg.Workers, &o.Workers)
	override(&o.given, &cfg.Seed, &o.Seed)
	override(&o.given, &cfg.Clip, &o.Clip)
	override(&o.given, &cfg.ValidationFraction, &o.ValidationFraction)
	override(&o.given, &cfg.Season, &o.Season)
	override(&o.given, &cfg.Horizon, &o.Horizon)
	override(&o.given, &cfg.Ladder, &o.Ladder)
	if j.From.Epoch >= cfg.Epochs {
		return sqlstate.New(sqlstate.InvalidParameterValue, "%s: %s has trained %d epochs; to resume it, epochs must be more than that, not %d",
			trainGATName, m.Ref, j.From.Epoch, cfg.Epochs)
	}
	cfg.Strategy = gatrun.StrategyOf(prev) // models stored before strategies are recursive
	j.Config = cfg
	if j.Name == "" {
		j.Name = m.Ref.Name
	}
	if j.Scaler == "" {
		j.Scaler = m.Scaler
	}
	return nil
}
