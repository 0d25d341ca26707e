// three.js with a few of its add-ons from `three/examples/jsm`.
import * as THREE from 'three'
import { OrbitControls } from 'three/examples/jsm/controls/OrbitControls.js'
import { GLTFLoader } from 'three/examples/jsm/loaders/GLTFLoader.js'
import { EffectComposer } from 'three/examples/jsm/postprocessing/EffectComposer.js'
import { RenderPass } from 'three/examples/jsm/postprocessing/RenderPass.js'
import { UnrealBloomPass } from 'three/examples/jsm/postprocessing/UnrealBloomPass.js'
import './style.css'

const canvas = document.getElementById('scene') as HTMLCanvasElement
const renderer = new THREE.WebGLRenderer({ canvas, antialias: true })
renderer.setSize(innerWidth, innerHeight)
const scene = new THREE.Scene()
const camera = new THREE.PerspectiveCamera(60, innerWidth / innerHeight, 0.1, 100)
camera.position.set(3, 2, 4)
const controls = new OrbitControls(camera, renderer.domElement)
const mesh = new THREE.Mesh(new THREE.TorusKnotGeometry(1, 0.3, 200, 32), new THREE.MeshStandardMaterial({ color: 0x3366ff }))
scene.add(mesh, new THREE.AmbientLight(0xffffff, 0.4), new THREE.DirectionalLight(0xffffff, 1))
const composer = new EffectComposer(renderer)
composer.addPass(new RenderPass(scene, camera))
composer.addPass(new UnrealBloomPass(new THREE.Vector2(innerWidth, innerHeight), 0.6, 0.4, 0.85))
new GLTFLoader().load('/model.gltf', (gltf) => scene.add(gltf.scene), undefined, () => {})
renderer.setAnimationLoop(() => {
  mesh.rotation.y += 0.01
  controls.update()
  composer.render()
})
