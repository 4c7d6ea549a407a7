#!/usr/bin/env bash
# The headless browser fin-qa serve's page is tested in: Debian's chromium and chromium-driver, and a CJK
# font (fonts-wqy-zenhei: the page's Chinese, and report pages whose fonts are not embedded, render
# with it). Installed with apt-get (as root, or through sudo without a password) when missing; exit 1
# when they are missing and cannot be installed.
set -euo pipefail
packages=()
command -v chromium >/dev/null 2>&1 || packages+=(chromium)
command -v chromedriver >/dev/null 2>&1 || packages+=(chromium-driver)
browser_missing=${#packages[@]}
if ! fc-list :lang=zh 2>/dev/null | grep -q .; then packages+=(fonts-wqy-zenhei); fi
[ ${#packages[@]} -eq 0 ] && exit 0
# the font is for legible pages and screenshots: without it the test still runs (a warning)
fail() { echo "install-browser.sh: $1" >&2; [ "$browser_missing" -eq 0 ] && exit 0; exit 1; }
if [ "$(id -u)" = 0 ]; then
  apt=(apt-get)
elif command -v sudo >/dev/null 2>&1 && sudo -n true 2>/dev/null; then
  apt=(sudo -n apt-get)
else
  fail "${packages[*]} missing, and apt-get needs root (run: sudo apt-get install ${packages[*]})"
fi
if ! command -v apt-get >/dev/null 2>&1; then
  fail "${packages[*]} missing and no apt-get here: install chromium and its driver yourself"
fi
export DEBIAN_FRONTEND=noninteractive
echo "install-browser.sh: apt-get install ${packages[*]}" >&2
if ! "${apt[@]}" install -y -q --no-install-recommends "${packages[@]}" >/dev/null 2>&1; then
  # a fresh machine has no package lists yet
  "${apt[@]}" update -q >/dev/null || fail "apt-get update failed"
  "${apt[@]}" install -y -q --no-install-recommends "${packages[@]}" >/dev/null || fail "apt-get install ${packages[*]} failed"
fi
command -v chromium >/dev/null 2>&1 && command -v chromedriver >/dev/null 2>&1
