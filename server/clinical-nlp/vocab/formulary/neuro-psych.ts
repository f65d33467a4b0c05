/** Depression, anxiety, sleep, psychosis, epilepsy, dementia, Parkinson's, vertigo, migraine, ADHD and addiction. Row format: ../formulary.ts. */
export const NEURO_PSYCH = `
sertraline|||tablet|25,50,100|serta,daxid,zosert,zoloft
escitalopram|||tablet|5,10,20|nexito,stalopam,cilentra,lexapro
escitalopram + clonazepam|||tablet||nexito plus
fluoxetine|||capsule,tablet|10,20,40,60|fludac,flunil,prozac
paroxetine|||tablet|10,12.5,20,25,30,37.5,40|pari cr,paxil,paxil cr
citalopram|||tablet|10,20,40|celexa
fluvoxamine|||tablet|50,100|fluvoxin,luvox
venlafaxine|||tablet,capsule|37.5,75,150|venlor,veniz,effexor,effexor xr
desvenlafaxine|||tablet|25,50,100|desvenlor,pristiq
duloxetine|||capsule|20,30,40,60|duzela,dulane,cymbalta
vortioxetine|||tablet|5,10,20|trintellix,brintellix
bupropion|||tablet|75,100,150,300|bupron sr,wellbutrin,wellbutrin xl,zyban
mirtazapine|||tablet|7.5,15,30,45|mirtaz,remeron
trazodone|||tablet|25,50,100,150|desyrel
amitriptyline|||tablet|10,25,50,75|tryptomer,amitone,elavil
amitriptyline + chlordiazepoxide|||tablet||libotryp
nortriptyline|||tablet,capsule|10,25,50,75|sensival,pamelor
imipramine|||tablet|10,25,75|depsonil,tofranil
clomipramine|||capsule|10,25,50,75|clofranil,anafranil
dosulepin||dothiepin|tablet|25,50,75|prothiaden
flupentixol + melitracen|||tablet||franxit,deanxit
buspirone|||tablet|5,7.5,10,15,30|buspin,buspar
alprazolam|||tablet|0.25,0.5,1,2|alprax,restyl,trika,xanax,xanax xr
clonazepam|||tablet,orally disintegrating tablet|0.25,0.5,1,2|clonotril,rivotril,lonazep,zapiz,klonopin
lorazepam|||tablet,injection|0.5,1,2,2mg/ml|ativan,larpose
diazepam|||tablet,injection,rectal gel|2,5,10,5mg/ml|valium,calmpose,diastat
etizolam|||tablet|0.25,0.5,1|etilaam,etizola
chlordiazepoxide|||tablet,capsule|5,10,25|librium
clobazam|||tablet|5,10,20|frisium,onfi
zolpidem|||tablet|5,6.25,10,12.5|zolfresh,nitrest,ambien,ambien cr
zopiclone|||tablet|3.75,7.5|
eszopiclone|||tablet|1,2,3|lunesta
melatonin|||tablet|1,3,5,10|meloset
ramelteon|||tablet|8|rozerem
suvorexant|||tablet|5,10,15,20|belsomra
olanzapine|||tablet,orally disintegrating tablet|2.5,5,7.5,10,15,20|oleanz,olimelt,zyprexa
quetiapine|||tablet|25,50,100,200,300,400|qutipin,seroquel,seroquel xr
risperidone|||tablet,solution|0.5,1,2,3,4|sizodon,risdone,risperdal
paliperidone|||tablet,injection|3,6,9|invega,invega sustenna
aripiprazole|||tablet|2,5,10,15,20,30|arip mt,abilify
clozapine|||tablet|25,50,100|sizopin,clozaril
haloperidol|||tablet,injection|0.5,1.5,5,10,5mg/ml|serenace,haldol
ziprasidone|||capsule|20,40,60,80|geodon
lurasidone|||tablet|20,40,80|latuda
amisulpride|||tablet|50,100,200|
trifluoperazine|||tablet|1,5|
trihexyphenidyl||benzhexol|tablet|2|pacitane,artane
lithium carbonate||lithium|tablet|150,300,400,450|licab,lithosun,lithobid
sodium valproate||valproic acid,valproate,divalproex,divalproex sodium|tablet,syrup,injection|200,250,300,500,750,200mg/5ml|encorate,encorate chrono,valparin,depakote,depakote er,depakene
levetiracetam|||tablet,syrup,injection|250,500,750,1000,100mg/ml|levipil,levera,keppra,keppra xr
phenytoin|||tablet,capsule,suspension,injection|50,100,300,125mg/5ml,50mg/ml|eptoin,dilantin
carbamazepine|||tablet|100,200,300,400|tegretol,tegretol cr,zen retard
oxcarbazepine|||tablet,suspension|150,300,450,600|oxetol,trileptal
lamotrigine|||tablet|25,50,100,200|lametec,lamictal
topiramate|||tablet,capsule|25,50,100,200|~topaz,topamax,trokendi xr
lacosamide|||tablet,injection|50,100,150,200|vimpat
phenobarbital|phenobarbital|phenobarbitone|tablet,injection|15,30,60|gardenal,luminal
zonisamide|||capsule|25,50,100|zonegran
brivaracetam|||tablet|25,50,75,100|briviact
midazolam|||nasal spray,injection,buccal solution|0.5,1,2,5,5mg/ml|nayzilam,buccolam
methylphenidate|||tablet|5,10,18,20,27,36,54|addwize,inspiral,ritalin,concerta
atomoxetine|||capsule|10,18,25,40,60|axepta,strattera
amphetamine|||tablet||
dextroamphetamine|||tablet|5,10|dexedrine
amphetamine + dextroamphetamine|||tablet,capsule||adderall,adderall xr
lisdexamfetamine|||capsule|20,30,40,50,60,70|vyvanse
guanfacine|||tablet|1,2,3,4|intuniv
donepezil|||tablet|5,10,23|donep,aricept
memantine|||tablet|5,10,28|admenta,namenda
rivastigmine|||capsule,patch|1.5,3,4.5,6,4.6,9.5|exelon
galantamine|||tablet|4,8,12|razadyne
levodopa + carbidopa|carbidopa + levodopa|carbidopa levodopa,levodopa carbidopa|tablet||syndopa,tidomet,sinemet,sinemet cr
levodopa + carbidopa + entacapone|||tablet||stalevo
pramipexole|||tablet|0.125,0.25,0.5,1,1.5|pramipex,mirapex
ropinirole|||tablet|0.25,0.5,1,2|ropark,requip
rasagiline|||tablet|0.5,1|azilect
amantadine|||capsule,tablet|100|gocovri
betahistine|||tablet|8,16,24|vertin,serc
cinnarizine|||tablet|25,75|stugeron
dimenhydrinate|||tablet,injection|50|dramamine,gravol
meclizine|meclizine|meclozine|tablet|12.5,25|antivert,bonine
hyoscine hydrobromide|scopolamine|hyoscine patch,scopolamine patch|patch|1.5|transderm scop
sumatriptan|||tablet,nasal spray,injection|25,50,100,6|suminat,imitrex
sumatriptan + naproxen|||tablet||treximet
rizatriptan|||tablet,orally disintegrating tablet|5,10|rizact,maxalt,maxalt mlt
zolmitriptan|||tablet,nasal spray|2.5,5|zomig
naratriptan|||tablet|1,2.5|naramig,amerge
flunarizine|||tablet|5,10|sibelium
erenumab|||injection|70,140|aimovig
ubrogepant|||tablet|50,100|ubrelvy
rimegepant|||orally disintegrating tablet|75|nurtec odt
naltrexone|||tablet,injection|50,380|revia,vivitrol
disulfiram|||tablet|250,500|antabuse
acamprosate|||tablet|333|campral
nicotine||nicotine gum,nicotine patch,nicotine replacement,nicotine replacement therapy,nrt|gum,chewing gum,patch,lozenge|2,4,7,14,21|nicotex,nicorette,nicoderm,nicoderm cq
varenicline|||tablet|0.5,1|chantix,champix
piracetam|||tablet,syrup|400,800,1200|nootropil
citicoline|||tablet,injection|500,1000|
flupentixol||flupenthixol|tablet,injection|0.5,1,3|fluanxol
melitracen|||tablet||
levodopa|||tablet||
carbidopa|||tablet|25|lodosyn
entacapone|||tablet|200|comtan
`;
