#!/usr/bin/env bash
# Installs the Bicep CLI into .tools/bicep/bicep (git-ignored) for `bicep build` / `bicep lint` of infra/.
#
# The binary ships inside the NuGet package Azure.Bicep.CommandLine.<rid>; the .NET SDK's own NuGet client
# restores it from whatever package sources this machine is configured with (no download URL here), into
# the usual global packages folder, so a second run on the same machine costs nothing.
#
# Have the Azure CLI? Skip this script: `az bicep install` then `az bicep build --file infra/main.bicep`
# and `az bicep lint --file infra/main.bicep` do the same checks.
#
# Usage: bash scripts/install-bicep.sh            (BICEP_VERSION=x.y.z to pin another version)
set -euo pipefail

version="${BICEP_VERSION:-0.49.2}"
root="$(cd "$(dirname "$0")/.." && pwd)"
dest="$root/.tools/bicep"

if [ -x "$dest/bicep" ] && "$dest/bicep" --version 2>/dev/null | grep -q "version $version "; then
  echo "bicep $version already installed in .tools/bicep"
  exit 0
fi

case "$(uname -s)-$(uname -m)" in
  Linux-x86_64) rid=linux-x64 ;;
  Linux-aarch64 | Linux-arm64) rid=linux-arm64 ;;
  *)
    echo "install-bicep: no Bicep CLI package for $(uname -s)-$(uname -m); use 'az bicep install' instead" >&2
    exit 1
    ;;
esac

if ! command -v dotnet >/dev/null; then
  echo "install-bicep: needs the .NET SDK (dotnet) to restore the NuGet package; or use 'az bicep install'" >&2
  exit 1
fi

export DOTNET_NOLOGO=1 DOTNET_CLI_TELEMETRY_OPTOUT=1 DOTNET_SKIP_FIRST_TIME_EXPERIENCE=1
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT

# A throwaway project whose only purpose is to make the NuGet client fetch the package.
tfm="net$(dotnet --version | cut -d. -f1).0"
cat >"$work/fetch-bicep.csproj" <<PROJECT
<Project Sdk="Microsoft.NET.Sdk">
  <PropertyGroup>
    <TargetFramework>$tfm</TargetFramework>
  </PropertyGroup>
  <ItemGroup>
    <PackageReference Include="Azure.Bicep.CommandLine.$rid" Version="$version" />
  </ItemGroup>
</Project>
PROJECT

echo "restoring Azure.Bicep.CommandLine.$rid $version"
dotnet restore "$work/fetch-bicep.csproj" --verbosity quiet

packages="$(dotnet nuget locals global-packages --list | sed -E 's/^[^:]*: *//')"
binary="$packages/azure.bicep.commandline.$rid/$version/tools/bicep"
if [ ! -f "$binary" ]; then
  echo "install-bicep: restored, but $binary is missing" >&2
  exit 1
fi

mkdir -p "$dest"
install -m 0755 "$binary" "$dest/bicep.partial"
mv -f "$dest/bicep.partial" "$dest/bicep"
"$dest/bicep" --version
