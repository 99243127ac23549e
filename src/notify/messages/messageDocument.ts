/** A message as plain-text blocks; `renderMessage` turns it into the text and HTML parts. */
export type Block =
  | { readonly kind: 'paragraph'; readonly text: string }
  | { readonly kind: 'facts'; readonly rows: readonly (readonly [label: string, value: string])[] }
  | { readonly kind: 'list'; readonly heading: string; readonly items: readonly string[] }
  | { readonly kind: 'link'; readonly label: string; readonly url: string; readonly note: string };

export interface MessageDocument {
  readonly to: readonly string[];
  readonly subject: string;
  readonly title: string;
  readonly blocks: readonly Block[];
}
