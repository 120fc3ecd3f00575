#!/usr/bin/env bash
# The merge job's older run to compare with: the newest earlier run of this workflow on this branch
# that left merged results (its live-results artifact), downloaded into the folder given. Not only
# a green one: a night with failures is the one whose failures tonight's are "still failing" against.
# Found, the run-results.json's path is the step's output `results`; not (no earlier run, or none of
# the last ten left results), one line says so in the job summary and the output is empty, so the
# merge runs without --compare. Needs gh and GH_TOKEN.
set -u
dir="${1:?give the folder to download the results of the previous run into}"
ids="$(gh run list --workflow live.yml --branch "$GITHUB_REF_NAME" --status completed --limit 10 \
  --json databaseId --jq '.[].databaseId')" || ids=""
for id in $ids; do
  [ "$id" = "${GITHUB_RUN_ID:-}" ] && continue
  rm -rf "$dir"
  if gh run download "$id" --name live-results --dir "$dir" >&2 && [ -f "$dir/run-results.json" ]; then
    echo "results=$dir/run-results.json" >> "$GITHUB_OUTPUT"
    echo "Compared with run $id, the newest earlier one on $GITHUB_REF_NAME with merged results."
    exit 0
  fi
done
echo "No earlier run of this workflow on $GITHUB_REF_NAME left merged results to compare with." >> "$GITHUB_STEP_SUMMARY"
echo "results=" >> "$GITHUB_OUTPUT"
