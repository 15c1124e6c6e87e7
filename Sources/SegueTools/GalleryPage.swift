// The gallery's HTML: one card per effect in a responsive grid, a filter box, and a short script
// that filters the cards and reports on the page itself how many previews are playing (so a
// person, or a headless browser, can see that every preview runs). Everything is escaped; no
// outside resources are loaded.

import FoundationEssentials
import Segue

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Writes the gallery page.
public enum GalleryPage {
    /// The page for `entries`.
    public static func html(_ entries: [GalleryEntry]) -> String {
        let previews = entries.filter { $0.preview != nil }.count
        var cards = ""
        for (index, e) in entries.enumerated() {
            let searchable = [e.name, e.kind, e.origin, e.summary].joined(separator: " ").lowercased()
            cards += "<article class=\"card\" data-search=\"\(escape(searchable))\" id=\"effect-\(index)\">\n"
            if let preview = e.preview {
                if preview.hasSuffix(".png") {
                    cards +=
                        "  <img class=\"preview\" src=\"previews/\(escape(preview))\" alt=\"\(escape(e.name))\" width=\"195\" height=\"422\">\n"
                } else {
                    cards +=
                        "  <video class=\"preview\" src=\"previews/\(escape(preview))\" width=\"195\" height=\"422\" autoplay loop muted playsinline></video>\n"
                }
            } else {
                cards += "  <div class=\"preview missing\">\(escape(e.note ?? "no preview"))</div>\n"
            }
            cards += "  <h2>\(escape(e.name))</h2>\n"
            cards += "  <p class=\"meta\"><span class=\"kind\">\(escape(e.kind))</span> · \(escape(e.origin))</p>\n"
            if !e.summary.isEmpty { cards += "  <p>\(escape(e.summary))</p>\n" }
            if let note = e.note, e.preview != nil { cards += "  <p class=\"note\">\(escape(note))</p>\n" }
            if e.parameters.isEmpty {
                cards += "  <p class=\"meta\">no parameters</p>\n"
            } else {
                cards += "  <table><tr><th>parameter</th><th>type</th><th>default</th></tr>\n"
                for p in e.parameters {
                    cards += "    <tr><td>\(escape(p.name))</td><td>\(escape(p.type))</td><td>\(escape(p.defaultValue))</td></tr>\n"
                }
                cards += "  </table>\n"
            }
            cards += "  <details><summary>source</summary><pre>\(escape(e.source))</pre></details>\n</article>\n"
        }
        return """
            <!DOCTYPE html>
            <html lang="en">
            <head>
            <meta charset="utf-8">
            <meta name="viewport" content="width=device-width, initial-scale=1">
            <title>Segue effects</title>
            <style>
            body { font: 14px/1.4 system-ui, sans-serif; margin: 0; background: #17171a; color: #e8e8ea; }
            header { position: sticky; top: 0; background: #17171aee; padding: 12px 20px; display: flex; gap: 16px; align-items: center; z-index: 1; }
            header h1 { font-size: 18px; margin: 0; }
            #filter { flex: 1; max-width: 420px; padding: 6px 10px; font-size: 14px; border-radius: 6px; border: 1px solid #444; background: #222; color: inherit; }
            main { display: grid; grid-template-columns: repeat(auto-fill, minmax(230px, 1fr)); gap: 16px; padding: 16px 20px; }
            .card { background: #222226; border-radius: 10px; padding: 12px; }
            .card[hidden] { display: none; }
            .preview { display: block; width: 195px; height: 422px; margin: 0 auto 8px; background: #000; border-radius: 6px; }
            .missing { display: flex; align-items: center; justify-content: center; text-align: center; color: #f99; padding: 8px; box-sizing: border-box; }
            h2 { font-size: 15px; margin: 4px 0; word-break: break-all; }
            .meta { color: #999; margin: 2px 0; word-break: break-all; }
            .kind { color: #8cf; }
            .note { color: #fc8; }
            table { border-collapse: collapse; font-size: 12px; margin-top: 6px; }
            td, th { text-align: left; padding: 1px 8px 1px 0; }
            pre { white-space: pre-wrap; font-size: 11px; max-height: 300px; overflow: auto; background: #111; padding: 6px; }
            </style>
            </head>
            <body data-effects="\(entries.count)" data-previews="\(previews)" data-playing="0">
            <header><h1>Segue effects</h1><input id="filter" type="search" placeholder="filter by name, kind or words" aria-label="filter"><span id="count">\(entries.count) effects</span></header>
            <main>
            \(cards)</main>
            <script>
            const cards = Array.from(document.querySelectorAll('.card'));
            const count = document.getElementById('count');
            document.getElementById('filter').addEventListener('input', (event) => {
              const words = event.target.value.toLowerCase().split(/\\s+/).filter(Boolean);
              let shown = 0;
              for (const card of cards) {
                const match = words.every((w) => card.dataset.search.includes(w));
                card.hidden = !match;
                if (match) shown += 1;
              }
              count.textContent = shown + ' of ' + cards.length + ' effects';
            });
            // How many previews run, on the page itself: videos whose time has advanced while playing
            // (remembered, so a loop's restart at 0 does not uncount one), and stills that loaded.
            const played = new Set();
            for (const v of document.querySelectorAll('video.preview')) {
              v.addEventListener('timeupdate', () => { if (v.currentTime > 0 && !v.paused) played.add(v); });
            }
            function countPlaying() {
              const videos = Array.from(document.querySelectorAll('video.preview')).filter((v) => (played.has(v) || (v.currentTime > 0 && !v.paused)) && !v.error);
              const stills = Array.from(document.querySelectorAll('img.preview')).filter((i) => i.complete && i.naturalWidth > 0);
              document.body.dataset.playing = String(videos.length + stills.length);
            }
            setInterval(countPlaying, 250);
            window.addEventListener('load', countPlaying);
            </script>
            </body>
            </html>

            """
    }

    /// Text for HTML content and attribute values.
    static func escape(_ text: String) -> String { Markup.escape(text) }
}
