#!/usr/bin/env sh
# Reads a ctxgit repository with plain git only: sessions, the context timeline, one commit's items, an item's
# original DAG node, and what changed between two commits. See docs/git-layout.md.
# Usage: examples/inspect-with-git.sh <repo-dir> [session]      (e.g. after `npm run demo`: .demo/repo.git demo)
set -eu
repo=${1:?usage: inspect-with-git.sh <repo-dir> [session]}
G="git --git-dir $repo"

echo "== sessions (refs/ctxgit/sessions/<session>/context)"
$G for-each-ref --format='%(refname)' 'refs/ctxgit/sessions/*/context' | sed 's|refs/ctxgit/sessions/||; s|/context$||'
session=${2:-$($G for-each-ref --format='%(refname)' 'refs/ctxgit/sessions/*/context' | sed -n '1s|refs/ctxgit/sessions/\(.*\)/context|\1|p')}

echo "== $session: configuration"
$G show "refs/ctxgit/sessions/$session/config:session.json"

echo "== $session: the context timeline, one commit per model call (newest first)"
$G log --oneline "refs/ctxgit/sessions/$session/context"

latest=$($G rev-parse "refs/ctxgit/sessions/$session/context")
first=$($G rev-list --max-parents=0 "refs/ctxgit/sessions/$session/context" | tail -n 1)
echo "== latest commit $latest: trailers and totals"
$G log -1 --format='%(trailers)' "$latest"
$G show "$latest:meta.json"; echo

echo "== its items, in order (items/<order key>-<item key>.json)"
$G ls-tree -r --name-only "$latest" items/

item=$($G ls-tree -r --name-only "$latest" items/ | sed -n 2p)
echo "== one item: $item"
$G show "$latest:$item"; echo
origin=$($G show "$latest:$item" | sed -n 's/.*"origin": *"\([0-9a-f]*\)".*/\1/p')
node=$($G show "$latest:$item" | sed -n 's/.*"sourceNodeId": *"\([^"]*\)".*/\1/p')
echo "== its original DAG node, by the blob id the item records ($origin)"
$G cat-file -p "$origin"; echo
h=$(printf %s "$node" | sha1sum | cut -c1-4)
h1=$(echo "$h" | cut -c1-2); h2=$(echo "$h" | cut -c3-4)
echo "== the same node in the session's DAG tree: refs/ctxgit/sessions/$session/dag:nodes/$h1/$h2/$node.json"
$G show "refs/ctxgit/sessions/$session/dag:nodes/$h1/$h2/$node.json"; echo
head=$($G log -1 --format='%(trailers:key=Head-Node,valueonly)' "$latest")
hh=$(printf %s "$head" | sha1sum | cut -c1-4)
echo "== the commit index: the latest commit at head $head"
indexed=$($G show "refs/ctxgit/sessions/$session/dag:commits/$(echo "$hh" | cut -c1-2)/$(echo "$hh" | cut -c3-4)/$head")
$G cat-file -p "$indexed"

echo "== what changed between the first and the latest commit"
$G diff --stat "$first" "$latest" -- items/

echo "== every session, branch and merge"
$G log --graph --oneline --all | head -n 20
