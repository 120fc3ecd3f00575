#!/usr/bin/env bash
# The merge job's older run to compare with: this workflow's last successful run on this branch,
# its live-results artifact downloaded into the folder given. Found, the run-results.json's path is
# the step's output `results`; not (no such run, or its artifact gone), one line says so in the job
# summary and the output is empty, so the merge runs without --compare. Needs gh and GH_TOKEN.
set -u
dir="${1:?give the folder to download the results of the last successful run into}"
id="$(gh run list --workflow live.yml --branch "$GITHUB_REF_NAME" --status success --limit 1 \
  --json databaseId --jq '.[0].databaseId // empty')" || id=""
if [ -n "$id" ] && gh run download "$id" --name live-results --dir "$dir" >&2 && [ -f "$dir/run-results.json" ]; then
  echo "results=$dir/run-results.json" >> "$GITHUB_OUTPUT"
  echo "Compared with run $id, the last successful one on $GITHUB_REF_NAME."
else
  echo "No earlier successful run of this workflow on $GITHUB_REF_NAME to compare with." >> "$GITHUB_STEP_SUMMARY"
  echo "results=" >> "$GITHUB_OUTPUT"
fi
