# Signs every executable and library of the Doppel folder with an Authenticode certificate,
# timestamped. Called by the release workflow only when the signing secrets exist.
# Usage: ./packaging/windows_sign.ps1 -Folder dist/Doppel
param([Parameter(Mandatory = $true)][string]$Folder)
$ErrorActionPreference = "Stop"
$pfx = Join-Path $env:RUNNER_TEMP "doppel-signing.pfx"
[IO.File]::WriteAllBytes($pfx, [Convert]::FromBase64String($env:WINDOWS_CERTIFICATE))
$signtool = Get-ChildItem "${env:ProgramFiles(x86)}\Windows Kits\10\bin\*\x64\signtool.exe" |
    Sort-Object FullName -Descending | Select-Object -First 1
$files = Get-ChildItem -Path $Folder -Recurse -Include *.exe, *.dll, *.pyd
foreach ($file in $files) {
    & $signtool.FullName sign /f $pfx /p $env:WINDOWS_CERTIFICATE_PASSWORD /fd SHA256 `
        /tr http://timestamp.digicert.com /td SHA256 $file.FullName
    if ($LASTEXITCODE -ne 0) { throw "signing failed: $($file.FullName)" }
}
Remove-Item $pfx
