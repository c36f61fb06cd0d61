#!/usr/bin/env python3
"""Checks deploy/k8s/mpijob.yaml against the MPIJob CRD's schema.

kubectl is not at hand where Mallard is tested, so this applies the
CRD's OpenAPI v3 schema (version v2beta1) with jsonschema, strictly:
a field the schema does not name is an error, as kubectl apply
--validate=strict reports it. Kubernetes' extensions are read as the API
server reads them (x-kubernetes-int-or-string: an integer or a string;
x-kubernetes-preserve-unknown-fields: any field). It then checks what
Mallard relies on: the launcher runs `mpirun ... --bind-to none ...
mallard train-worker --job DIR`, and every worker mounts DIR's volume.

Usage: validate.py CRD.yaml [MANIFEST.yaml]
CRD.yaml is kubeflow/mpi-operator's manifests/base/kubeflow.org_mpijobs.yaml.
"""
import os
import sys

import jsonschema
import yaml


def strict(schema):
    """Returns schema as jsonschema reads it, unknown fields refused."""
    if isinstance(schema, list):
        return [strict(s) for s in schema]
    if not isinstance(schema, dict):
        return schema
    out = {k: strict(v) for k, v in schema.items() if not k.startswith("x-kubernetes")}
    if schema.get("x-kubernetes-int-or-string"):
        out.pop("type", None)
        out["anyOf"] = [{"type": "integer"}, {"type": "string"}]
    if schema.get("x-kubernetes-preserve-unknown-fields"):
        return out
    if "properties" in out and "additionalProperties" not in out:
        out["additionalProperties"] = False
    return out


def mpijob_schema(crd_path):
    with open(crd_path) as f:
        crd = yaml.safe_load(f)
    if crd.get("kind") != "CustomResourceDefinition" or crd["spec"]["names"]["kind"] != "MPIJob":
        sys.exit(f"{crd_path} is not the MPIJob CRD")
    for version in crd["spec"]["versions"]:
        if version["name"] == "v2beta1":
            return strict(version["schema"]["openAPIV3Schema"])
    sys.exit(f"{crd_path} has no version v2beta1")


def check_mallard(job):
    """Returns what is wrong with the job for Mallard's train-worker."""
    problems = []
    specs = job["spec"]["mpiReplicaSpecs"]
    launcher = specs["Launcher"]["template"]["spec"]["containers"][0]
    line = launcher.get("command", []) + launcher.get("args", [])
    if line[:1] != ["mpirun"]:
        problems.append(f"the launcher runs {line[:1]}, not mpirun")
    if "--bind-to" not in line or line[line.index("--bind-to") + 1] != "none":
        problems.append("mpirun lacks --bind-to none")
    if "train-worker" not in line or "--job" not in line:
        problems.append("the launcher does not run mallard train-worker --job DIR")
        return problems
    job_dir = line[line.index("--job") + 1]
    np = int(line[line.index("-np") + 1]) if "-np" in line else None
    workers = specs["Worker"].get("replicas", 1) * job["spec"].get("slotsPerWorker", 1)
    if np is not None and np != workers:
        problems.append(f"mpirun -np {np} but {workers} worker slots")
    for c in specs["Worker"]["template"]["spec"]["containers"]:
        mounts = [m["mountPath"] for m in c.get("volumeMounts", [])]
        if not any(job_dir == m or job_dir.startswith(m.rstrip("/") + "/") for m in mounts):
            problems.append(f"worker container {c['name']} does not mount {job_dir}")
    return problems


def main():
    if len(sys.argv) not in (2, 3):
        sys.exit(__doc__)
    manifest = sys.argv[2] if len(sys.argv) == 3 else os.path.join(os.path.dirname(__file__), "mpijob.yaml")
    with open(manifest) as f:
        job = yaml.safe_load(f)
    if job.get("apiVersion") != "kubeflow.org/v2beta1" or job.get("kind") != "MPIJob":
        sys.exit(f"{manifest}: apiVersion {job.get('apiVersion')} kind {job.get('kind')}, want kubeflow.org/v2beta1 MPIJob")
    schema = mpijob_schema(sys.argv[1])
    errors = sorted(jsonschema.Draft7Validator(schema).iter_errors(job), key=lambda e: list(e.path))
    for e in errors:
        print(f"{manifest}: {'.'.join(map(str, e.path)) or '(root)'}: {e.message}")
    problems = check_mallard(job)
    for p in problems:
        print(f"{manifest}: {p}")
    if errors or problems:
        sys.exit(1)
    print(f"{manifest}: valid MPIJob v2beta1 for mallard train-worker")


if __name__ == "__main__":
    main()
