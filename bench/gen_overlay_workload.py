#!/usr/bin/env python3
"""Writes an overlay workload: N output documents and a file of document overlays.

usage: gen_overlay_workload.py N DIR

DIR/base.yml     N plain documents: Deployments (two containers each), Services, ConfigMaps
DIR/overlay.yml  overlays as real configurations use them: labels on every document
                 (overlay.all), containers edited by name and appended (overlay.subset),
                 a via= replacement chosen by a lambda matcher, ConfigMaps removed
"""
import os
import sys


def main():
    n, out = int(sys.argv[1]), sys.argv[2]
    os.makedirs(out, exist_ok=True)
    docs = []
    for i in range(n):
        kind = ("Deployment", "Service", "ConfigMap")[i % 3]
        if kind == "Deployment":
            docs.append(f"""apiVersion: apps/v1
kind: Deployment
metadata:
  name: app-{i}
  labels:
    app: app-{i}
spec:
  replicas: {1 + i % 5}
  template:
    spec:
      containers:
      - name: web
        image: nginx:1.{i % 20}
        ports:
        - containerPort: 8080
      - name: sidecar
        image: envoy:1.{i % 7}
""")
        elif kind == "Service":
            docs.append(f"""apiVersion: v1
kind: Service
metadata:
  name: app-{i}
spec:
  selector:
    app: app-{i - 1}
  ports:
  - port: 80
    targetPort: 8080
""")
        else:
            docs.append(f"""apiVersion: v1
kind: ConfigMap
metadata:
  name: cfg-{i}
data:
  key: value-{i}
""")
    with open(os.path.join(out, "base.yml"), "w") as f:
        f.write("---\n".join(docs))
    with open(os.path.join(out, "overlay.yml"), "w") as f:
        f.write("""#@ load("@ytt:overlay", "overlay")
#@overlay/match by=overlay.all, expects="1+"
---
metadata:
  #@overlay/match missing_ok=True
  labels:
    #@overlay/match missing_ok=True
    team: platform
#@overlay/match by=overlay.subset({"kind": "Deployment"}), expects="1+"
---
spec:
  template:
    spec:
      containers:
      #@overlay/match by="name"
      - name: web
        image: nginx:stable
      #@overlay/append
      - name: logger
        image: fluent-bit:2
#@overlay/match by=lambda i, left, right: left["kind"] == "Service", expects="1+"
---
spec:
  #@overlay/replace via=lambda left, right: [dict(port=443, targetPort=p["targetPort"]) for p in left]
  ports: []
#@overlay/match by=overlay.subset({"kind": "ConfigMap"}), expects="0+"
#@overlay/remove
---
""")


if __name__ == "__main__":
    main()
