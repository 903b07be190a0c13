/**
 * The style of the access report's page (src/core/render/report-html.ts), inlined in its <style>
 * and allowed by the page's Content-Security-Policy by its sha256, computed when the page is written.
 */
export const STYLE = `
:root{color-scheme:light;font-family:system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;line-height:1.4;color:#1b1f24;background:#fff}
body{margin:0 auto;padding:1rem 1.5rem;max-width:110rem}
h1{font-size:1.5rem;margin:.2rem 0}h2{font-size:1.2rem;margin:1.2rem 0 .4rem}
table{border-collapse:collapse;width:100%;font-size:.875rem}
caption{text-align:left;font-weight:600;padding:.3rem 0}
th,td{border-bottom:1px solid #d0d7de;padding:.25rem .5rem;text-align:left;vertical-align:top;overflow-wrap:break-word}
thead th{background:#f6f8fa;position:sticky;top:0}
th[scope=rowgroup]{background:#eef2f6}
.num{text-align:right;font-variant-numeric:tabular-nums}
small{color:#57606a}
.note{background:#fff8c5;border:1px solid #d4a72c;padding:.4rem .6rem}
form p{margin:.4rem 0}
label{margin-right:.8rem}
input[type=search]{width:22rem;max-width:100%;font:inherit;padding:.25rem .4rem}
select{font:inherit}
fieldset{border:1px solid #d0d7de;margin:.4rem 0;padding:.3rem .6rem}
fieldset label{white-space:nowrap}
th button{font:inherit;font-weight:600;background:none;border:0;padding:0;cursor:pointer;color:inherit;text-align:left}
th button::after{content:" \\2195";color:#8c959f}
th[aria-sort=ascending] button::after{content:" \\2191";color:inherit}
th[aria-sort=descending] button::after{content:" \\2193";color:inherit}
button:focus-visible,input:focus-visible,select:focus-visible{outline:3px solid #0969da;outline-offset:2px}
#more{font:inherit;padding:.3rem .8rem}
.st-not-declared,.st-not-live{background:#fff1e5}
.ex-expired{color:#a40e26;font-weight:600}
.ex-expiring{color:#7d4e00;font-weight:600}
.shown{display:none}
.js .shown{display:table-cell}
@media print{
  body{max-width:none;padding:0;font-size:10pt}
  #filters,#more,th button::after{display:none}
  thead th{position:static}
  thead{display:table-header-group}
  tr{break-inside:avoid}
  .st-not-declared,.st-not-live{background:none;font-style:italic}
}
`;
