// The browser code of every page (bundled by src/modules/site/assets.ts; loaded as a module, so after parsing).
// It only enhances: every page reads and works without it. Built with DOM calls and textContent only.
import {
  errorsByField, FIELD_LABELS, FIELD_ORDER, instantLabel, latencyLabel, maintenanceText, modeLabel, okLabel,
  serviceLabel, STATUS_COLUMNS, statusLabel, statusSummary, tooManyRequests, UNAVAILABLE,
  type FieldError, type FieldName,
} from '../format.ts'
import { HONEYPOT_FIELD, TOKEN_FIELD } from '../../contact/spam/rules.ts'
import type { StatusOutT } from '../../status/schemas.ts'

const byId = <T extends HTMLElement = HTMLElement>(id: string) => document.getElementById(id) as T | null

function el<K extends keyof HTMLElementTagNameMap>(tag: K, attrs: Record<string, string> = {}, ...children: (Node | string)[]): HTMLElementTagNameMap[K] {
  const node = document.createElement(tag)
  for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, v)
  node.append(...children)
  return node
}

// Contact form ------------------------------------------------------------------------------------------

function contactForm(): void {
  const form = byId<HTMLFormElement>('form-contato')
  if (!form) return
  const api = form.dataset.api!
  const button = form.querySelector<HTMLButtonElement>('button[type="submit"]')!
  const summary = byId('resumo-erros')!
  const alertBox = byId('aviso-envio')!
  const result = byId('resultado')!
  const buttonText = button.textContent ?? ''
  // The server's 422 is the one validation; the browser's own bubbles would only pre-empt it in other words.
  form.noValidate = true
  void refreshSubjects(form)

  const field = (f: FieldName) => form.elements.namedItem(f) as HTMLInputElement | HTMLSelectElement | HTMLTextAreaElement | null

  function clearMessages(): void {
    for (const f of FIELD_ORDER) {
      field(f)?.removeAttribute('aria-invalid')
      const err = byId(`erro-${f}`)
      if (err) err.textContent = ''
    }
    summary.replaceChildren()
    summary.hidden = true
    alertBox.replaceChildren()
    alertBox.hidden = true
  }

  function showAlert(text: string): void {
    alertBox.replaceChildren(el('p', {}, text))
    alertBox.hidden = false
  }

  function showErrors(items: FieldError[]): void {
    const { fields: messages, general } = errorsByField(items)
    const ordered = [...messages.keys()]
    for (const f of ordered) {
      field(f)?.setAttribute('aria-invalid', 'true')
      const err = byId(`erro-${f}`)
      if (err) err.textContent = messages.get(f)!
    }
    const list = el('ul')
    for (const g of general) list.append(el('li', {}, g))
    for (const f of ordered) list.append(el('li', {}, el('a', { href: `#campo-${f}` }, `${FIELD_LABELS[f]}: ${messages.get(f)!}`)))
    summary.replaceChildren(el('h2', {}, ordered.length === 1 ? 'Corrija o campo abaixo' : 'Corrija os campos abaixo'), list)
    summary.hidden = false
    const first = ordered[0]
    if (first) field(first)?.focus()
    else summary.focus()
  }

  function showReceipt(out: { protocolo: string, destino: string, mensagem: string }): void {
    const again = el('button', { type: 'button', class: 'botao' }, 'Enviar outra mensagem')
    again.addEventListener('click', () => {
      form!.reset()
      result.hidden = true
      form!.hidden = false
      field('nome')?.focus()
    })
    result.replaceChildren(
      el('h2', {}, 'Mensagem recebida'),
      el('dl', {},
        el('dt', {}, 'Protocolo'), el('dd', { class: 'protocolo', id: 'protocolo' }, out.protocolo),
        el('dt', {}, 'Destino'), el('dd', { id: 'destino' }, out.destino)),
      el('p', {}, out.mensagem),
      el('p', {}, again),
    )
    form!.hidden = true
    result.hidden = false
    result.focus()
  }

  let sending = false
  form.addEventListener('submit', (event) => {
    event.preventDefault()
    // A double click sends once: the second click finds the button disabled and this flag set.
    if (sending) return
    sending = true
    button.disabled = true
    button.setAttribute('aria-busy', 'true')
    button.textContent = 'Enviando…'
    clearMessages()
    const body: Record<string, string> = {}
    for (const f of FIELD_ORDER) {
      const v = field(f)?.value ?? ''
      if (v.trim() !== '') body[f] = v
    }
    // The form's defences against bots ride along: the API treats them as the site's form (src/modules/contact/spam/rules.ts).
    for (const name of [HONEYPOT_FIELD, TOKEN_FIELD]) {
      const v = (form.elements.namedItem(name) as HTMLInputElement | null)?.value ?? ''
      if (v !== '') body[name] = v
    }
    void (async () => {
      try {
        const res = await fetch(api, {
          method: 'POST',
          headers: { 'content-type': 'application/json', accept: 'application/json' },
          body: JSON.stringify(body),
          credentials: 'same-origin',
        })
        if (res.status === 202) showReceipt(await res.json())
        else if (res.status === 422) showErrors(((await res.json()) as { detail?: FieldError[] }).detail ?? [])
        else if (res.status === 429) showAlert(tooManyRequests(Number.parseInt(res.headers.get('retry-after') ?? '', 10) || null))
        else showAlert(UNAVAILABLE)
      } catch {
        showAlert('Sem conexão com o servidor: nada foi enviado. Verifique sua internet e tente de novo.')
      } finally {
        sending = false
        button.disabled = false
        button.removeAttribute('aria-busy')
        button.textContent = buttonText
      }
    })()
  })
}

/** The subject selector, rebuilt from GET /api/site/contato/assuntos (the server drew it from the same list). */
async function refreshSubjects(form: HTMLFormElement): Promise<void> {
  const select = form.querySelector<HTMLSelectElement>('select[data-fonte]')
  if (!select) return
  try {
    const res = await fetch(select.dataset.fonte!, { headers: { accept: 'application/json' } })
    if (!res.ok) return
    const data = await res.json() as { assuntos?: { codigo?: unknown, rotulo?: unknown }[] }
    const list = (data.assuntos ?? []).filter((s) => typeof s.codigo === 'string' && typeof s.rotulo === 'string')
    if (list.length === 0) return
    const chosen = select.value
    select.replaceChildren(...list.map((s) => el('option', { value: String(s.codigo) }, String(s.rotulo))))
    select.value = list.some((s) => s.codigo === chosen) ? chosen : String(list[0]!.codigo)
  } catch {
    // The list the server rendered stays.
  }
}

// Live status ----------------------------------------------------------------------------------------------

function liveStatus(): void {
  const root = byId('status-ao-vivo')
  if (!root) return
  const url = root.dataset.fonte!
  const every = Number(root.dataset.intervalo) || 5000
  const note = byId('atualizacao')!
  const seconds = Math.round(every / 1000)
  note.hidden = false
  note.textContent = `Esta página se atualiza sozinha a cada ${seconds} segundos.`
  let timer: number | undefined
  let last = byId('estado-geral')?.dataset.status ?? ''

  const render = (s: StatusOutT) => {
    const overall = byId('estado-geral')!
    overall.textContent = statusLabel(s.status)
    overall.className = `selo selo-${s.status}`
    overall.dataset.status = s.status
    if (s.status !== last) byId('anuncio-status')!.textContent = statusSummary(s)
    last = s.status
    const rows = s.servicos.map((sv) => el('tr', { 'data-servico': sv.nome },
      el('th', { scope: 'row' }, serviceLabel(sv.nome)),
      el('td', { 'data-rotulo': STATUS_COLUMNS[1] }, el('span', { class: `selo ${sv.ok ? 'selo-ok' : 'selo-falha'}` }, okLabel(sv.ok))),
      el('td', { 'data-rotulo': STATUS_COLUMNS[2] }, latencyLabel(sv.latencia_ms)),
      el('td', { 'data-rotulo': STATUS_COLUMNS[3] }, modeLabel(sv.modo))))
    document.querySelector('#servicos tbody')!.replaceChildren(...rows)
    const banner = maintenanceText(s.manutencao)
    byId('manutencao')!.hidden = !banner
    byId('manutencao-texto')!.textContent = banner ?? ''
    const time = byId<HTMLTimeElement>('verificado-em')!
    time.dateTime = s.verificado_em
    time.textContent = instantLabel(s.verificado_em)
    byId('ambiente')!.textContent = s.ambiente
  }

  const tick = async () => {
    timer = undefined
    try {
      const res = await fetch(url, { headers: { accept: 'application/json' }, cache: 'no-store' })
      if (!res.ok) throw new Error(String(res.status))
      render(await res.json() as StatusOutT)
      note.textContent = `Esta página se atualiza sozinha a cada ${seconds} segundos.`
    } catch {
      note.textContent = `Não foi possível atualizar agora; mostrando a última verificação. Nova tentativa em ${seconds} segundos.`
    }
    schedule()
  }
  const schedule = () => {
    if (timer === undefined && !document.hidden) timer = window.setTimeout(() => void tick(), every)
  }
  document.addEventListener('visibilitychange', () => {
    if (document.hidden) {
      window.clearTimeout(timer)
      timer = undefined
    } else {
      void tick()
    }
  })
  schedule()
}

// Copy buttons (the account's new token) -----------------------------------------------------------------

/** A button `data-copiar="ID"` copies the text of #ID; without JavaScript it stays hidden and the text is selectable. */
function copyButtons(): void {
  for (const button of document.querySelectorAll<HTMLButtonElement>('button[data-copiar]')) {
    const source = byId(button.dataset.copiar!)
    const status = byId('copia-estado')
    if (!source) continue
    button.hidden = false
    button.addEventListener('click', () => {
      navigator.clipboard.writeText(source.textContent ?? '').then(
        () => { if (status) status.textContent = 'Copiado.' },
        () => {
          // No clipboard for this page (permissions, an old browser): the text selected, for Ctrl+C.
          getSelection()?.selectAllChildren(source)
          if (status) status.textContent = 'Não foi possível copiar sozinho: o texto está selecionado, copie com Ctrl+C.'
        },
      )
    })
  }
}

contactForm()
liveStatus()
copyButtons()
