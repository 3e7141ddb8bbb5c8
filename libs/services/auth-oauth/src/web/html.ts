/** HTML that is already safe to emit (built by `html` or deliberately trusted). */
export class SafeHtml {
  constructor(readonly value: string) {}
  toString(): string {
    return this.value;
  }
}

const ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (ch) => ESCAPES[ch]);
}

type Interpolation = SafeHtml | string | number | boolean | null | undefined | readonly Interpolation[];

function render(value: Interpolation): string {
  if (value === null || value === undefined || value === false) return '';
  if (value instanceof SafeHtml) return value.value;
  if (Array.isArray(value)) return (value as readonly Interpolation[]).map(render).join('');
  return escapeHtml(String(value));
}

/** Tagged template: every interpolated value is escaped unless it is SafeHtml (a nested `html`). */
export function html(strings: TemplateStringsArray, ...values: Interpolation[]): SafeHtml {
  let out = strings[0];
  values.forEach((value, index) => (out += render(value) + strings[index + 1]));
  return new SafeHtml(out);
}

const STYLE = `
body{font:16px/1.5 system-ui,sans-serif;margin:0;background:#fafafa;color:#202020}
main{max-width:36rem;margin:2rem auto;padding:1.5rem;background:#fff;border:1px solid #ddd;border-radius:8px}
h1{font-size:1.5rem;margin-top:0}label{display:block;font-weight:600;margin-top:1rem}
input,textarea,select{box-sizing:border-box;width:100%;padding:.5rem;font:inherit;border:1px solid #767676;border-radius:4px}
input[type=checkbox]{width:auto}fieldset{margin-top:1rem;border:1px solid #ddd;border-radius:4px}fieldset label{font-weight:400;margin-top:.25rem}
button{margin-top:1rem;padding:.5rem 1rem;font:inherit;border-radius:4px;border:1px solid #1a5fb4;background:#1a5fb4;color:#fff;cursor:pointer}
button.secondary{background:#fff;color:#1a5fb4}
:focus-visible{outline:3px solid #f5a623;outline-offset:2px}
.error{color:#a51d2d;border:1px solid #a51d2d;padding:.5rem;border-radius:4px}
.notice{border:1px solid #26a269;padding:.5rem;border-radius:4px}
code.secret{display:block;font-size:1.05rem;padding:.5rem;background:#f0f0f0;word-break:break-all}
nav a{margin-right:1rem}.hint{color:#555;font-size:.9rem}
`;

/** The page frame: one landmark, a heading, optional navigation for a logged-in user. */
export function layout(title: string, body: SafeHtml, options: { nav?: SafeHtml } = {}): string {
  return `<!doctype html>${html`<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>${title} · Doable</title><style>${new SafeHtml(STYLE)}</style></head><body>${options.nav ? html`<header><nav aria-label="Account">${options.nav}</nav></header>` : ''}<main><h1>${title}</h1>${body}</main></body></html>`.value}`;
}
