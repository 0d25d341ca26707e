import { mark } from './markers.js'

mark('lazy')

/** One line about the catalogue: how many products, in how many categories, what in stock. */
export function summarise(/** @type {{ category: string, stock: number, price: number }[]} */ products) {
  const categories = new Set(products.map((p) => p.category))
  const inStock = products.filter((p) => p.stock > 0)
  const value = inStock.reduce((sum, p) => sum + p.price * p.stock, 0)
  return `${products.length} products in ${categories.size} categories; ${inStock.length} in stock, worth ${Math.round(value).toLocaleString('en')} EUR.`
}
