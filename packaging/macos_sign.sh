#!/usr/bin/env bash
# Signs Doppel.app with a Developer ID certificate, notarises it with Apple and staples the
# ticket. Called by the release workflow only when the signing secrets exist; the same steps
# work by hand (docs/packaging.md). Usage: packaging/macos_sign.sh dist/Doppel.app
set -euo pipefail
app="$1"
keychain="$RUNNER_TEMP/doppel-signing.keychain-db"
keychain_password="$(uuidgen)"

echo "$MACOS_CERTIFICATE" | base64 --decode > "$RUNNER_TEMP/certificate.p12"
security create-keychain -p "$keychain_password" "$keychain"
security set-keychain-settings -lut 21600 "$keychain"
security unlock-keychain -p "$keychain_password" "$keychain"
security import "$RUNNER_TEMP/certificate.p12" -k "$keychain" -P "$MACOS_CERTIFICATE_PASSWORD" \
    -T /usr/bin/codesign
security set-key-partition-list -S apple-tool:,apple: -s -k "$keychain_password" "$keychain"
security list-keychains -d user -s "$keychain" $(security list-keychains -d user | tr -d '"')

codesign --force --deep --options runtime --timestamp \
    --sign "$MACOS_SIGNING_IDENTITY" "$app"
codesign --verify --deep --strict --verbose=2 "$app"

ditto -c -k --keepParent "$app" "$RUNNER_TEMP/Doppel-notarise.zip"
xcrun notarytool submit "$RUNNER_TEMP/Doppel-notarise.zip" --wait \
    --apple-id "$MACOS_NOTARY_APPLE_ID" --team-id "$MACOS_NOTARY_TEAM_ID" \
    --password "$MACOS_NOTARY_PASSWORD"
xcrun stapler staple "$app"
